import { Aws, DefaultStackSynthesizer, Fn, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StageConfig } from '#infra/config.ts';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { REPOSITORY_ROOT } from '#infra/constructs/imaging-function.ts';
import { resourceNames } from '#infra/resource-names.ts';
import { siteContentSecurityPolicy, withContentSecurityPolicyMeta } from '#infra/site-csp.ts';
import { siteHosts } from '#infra/stacks/edge-stack.ts';

export const SITE_BUILD_DIR = path.join(REPOSITORY_ROOT, 'web/dist');
export const RUNTIME_CONFIG_FILE = 'config.json';
export const INDEX_FILE = 'index.html';
/** Source maps stay out of the bucket: the build makes them (hidden) for local debugging only. */
export const UNPUBLISHED_SITE_FILES = ['*.map', '**/*.map'];

/** The runtime settings the site reads from /config.json (web/src/config/runtime-config.ts). */
export function runtimeConfig(props: {
  config: Pick<StageConfig, 'authDomainPrefix'>;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  apiBaseUrl: string;
}) {
  const { authDomainPrefix } = props.config;
  return {
    region: Aws.REGION,
    userPoolId: props.userPool.userPoolId,
    userPoolClientId: props.userPoolClient.userPoolClientId,
    apiBaseUrl: props.apiBaseUrl,
    mode: 'cloud',
    // Single sign-on (docs/sso.md): the hosted-login domain; hospitals connect their providers at run time and the
    // login page asks the API which e-mail goes where.
    ...(authDomainPrefix ? { sso: { domain: `${authDomainPrefix}.auth.${Aws.REGION}.amazoncognito.com` } } : {}),
  };
}

export type WebStackProps = StackProps & {
  config: StageConfig;
  distribution: IDistribution;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  apiBaseUrl: string;
  dataKey: IKey;
  /** Publish web/dist when it exists at synth time (the default); tests turn it off to stay independent of a site build. */
  publishSiteBuild?: boolean;
  /** The built site to publish (default web/dist). */
  siteBuildDir?: string;
};

/**
 * Publishes the site into the edge stack's bucket: the built files (web/dist, when built) and
 * /config.json with this deployment's region, user pool, client and API URL, so one site build serves
 * every stage. It comes last because config.json names what the other stacks created.
 */
export class WebStack extends Stack {
  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logGroup = new LogGroup(this, 'PublishLogs', {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });

    // By name (not the edge stack's object), so the deployment role's grant reads the same in every stage.
    const siteBucket = Bucket.fromBucketName(this, 'SiteBucket', resourceNames(config).siteBucket);
    const deployments: BucketDeployment[] = [];
    const buildDir = props.siteBuildDir ?? SITE_BUILD_DIR;
    const publishSite = (props.publishSiteBuild ?? true) && existsSync(path.join(buildDir, INDEX_FILE));
    if (publishSite) {
      deployments.push(
        new BucketDeployment(this, 'SiteFiles', {
          sources: [Source.asset(buildDir, { exclude: [RUNTIME_CONFIG_FILE, INDEX_FILE, ...UNPUBLISHED_SITE_FILES] })],
          destinationBucket: siteBucket,
          // Pruning removes files of older builds (source maps an older build published included), but never
          // config.json and index.html, which the deployment below owns.
          prune: true,
          exclude: [RUNTIME_CONFIG_FILE, INDEX_FILE],
          distribution: props.distribution,
          distributionPaths: ['/*'],
          logGroup,
          memoryLimit: 512,
        }),
      );
    }
    // index.html carries a second policy naming this stage's API origin exactly (the edge stack's header can only
    // name the region's API Gateway): the browser enforces both.
    const pinnedPage = publishSite
      ? [
          Source.data(
            INDEX_FILE,
            withContentSecurityPolicyMeta(
              readFileSync(path.join(buildDir, INDEX_FILE), 'utf8'),
              siteContentSecurityPolicy(siteHosts(config, apiOrigin(props.apiBaseUrl)), { forMetaElement: true }),
            ),
          ),
        ]
      : [];
    deployments.push(
      new BucketDeployment(this, 'RuntimeConfig', {
        sources: [Source.jsonData(RUNTIME_CONFIG_FILE, runtimeConfig(props)), ...pinnedPage],
        destinationBucket: siteBucket,
        prune: false,
        cacheControl: [],
        distribution: props.distribution,
        distributionPaths: [`/${RUNTIME_CONFIG_FILE}`, ...(publishSite ? ['/', `/${INDEX_FILE}`] : [])],
        logGroup,
        memoryLimit: 256,
      }),
    );
    for (const deployment of deployments) deployment.node.addDependency(logGroup);
    acknowledgeDeploymentHandler(this, siteBucket);
  }
}

/** `https://<api id>.execute-api.<region>.<suffix>` of the API base URL, resolved at deployment. */
export function apiOrigin(apiBaseUrl: string): string {
  return `https://${Fn.select(2, Fn.split('/', apiBaseUrl))}`;
}

/**
 * BucketDeployment runs a CDK-provided singleton Lambda during deployment only; its role and runtime are
 * CDK's. It touches the site bucket (static files, no PHI) and the CDK asset bucket.
 */
function acknowledgeDeploymentHandler(stack: Stack, siteBucket: IBucket): void {
  const reason = (why: string) => `CDK BucketDeployment handler (deploy-time only, site files without PHI): ${why}`;
  const wildcard = (finding: string, why: string) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason: reason(why) });
  const resource = (arn: string) => `Resource::${flattenCfnReference(stack.resolve(arn))}`;
  const cdkAssets = `arn:${Aws.PARTITION}:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${Aws.ACCOUNT_ID}-${Aws.REGION}/*`;
  Validations.of(stack).acknowledge(
    wildcard('Action::s3:GetBucket*', 'CDK grants read of the asset and site buckets with action wildcards.'),
    wildcard('Action::s3:GetObject*', 'CDK grants read of the asset and site buckets with action wildcards.'),
    wildcard('Action::s3:List*', 'CDK grants read of the asset and site buckets with action wildcards.'),
    wildcard('Action::s3:Abort*', 'CDK grants write of the site bucket with action wildcards.'),
    wildcard('Action::s3:DeleteObject*', 'pruning old site files deletes objects of the site bucket.'),
    wildcard(resource(cdkAssets), 'reads the zipped site from the CDK asset bucket.'),
    wildcard(resource(siteBucket.arnForObjects('*')), 'writes the site files; object keys are the build output.'),
    wildcard('Resource::*', 'cloudfront:CreateInvalidation after publishing; CDK grants it on every distribution.'),
    {
      id: 'HIPAA.Security-IAMNoInlinePolicy',
      reason: reason('the handler role and its policy are created by aws-cdk-lib.'),
    },
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: reason('CDK attaches the basic execution policy to its own handler role.'),
    },
    { id: 'AwsSolutions-L1', reason: reason('the handler runtime is chosen and updated by aws-cdk-lib.') },
    { id: 'HIPAA.Security-LambdaConcurrency', reason: reason('runs only during CloudFormation deployments.') },
    {
      id: 'HIPAA.Security-LambdaDLQ',
      reason: reason('invoked synchronously by CloudFormation, which reports failures itself.'),
    },
    { id: 'HIPAA.Security-LambdaInsideVPC', reason: reason('reaches only S3 and CloudFront APIs.') },
  );
}
