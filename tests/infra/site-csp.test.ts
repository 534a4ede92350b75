import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, CfnWaitConditionHandle, Stack } from 'aws-cdk-lib';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Key } from 'aws-cdk-lib/aws-kms';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { ConfigEnv, UserConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStageConfig } from '#infra/config.ts';
import { siteHeaderPolicy } from '#infra/stacks/edge-stack.ts';
import { WebStack } from '#infra/stacks/web-stack.ts';
import { REPOSITORY_ROOT } from '#infra/constructs/imaging-function.ts';
import { cdkJsonContext } from './synth.ts';

const API_BASE_URL = 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/dev/api';

function app(context: Record<string, unknown> = {}): App {
  return new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], stage: 'dev', ...context } });
}

/** The header policy as CloudFormation will resolve it, pseudo parameters written <AWS::Region>. */
function headerPolicy(context: Record<string, unknown> = {}): string {
  const scope = app(context);
  const stack = new Stack(scope, 'probe');
  return flattenCfnReference(stack.resolve(siteHeaderPolicy(loadStageConfig(scope.node))));
}

function directive(policy: string, name: string): string[] {
  const found = policy.split('; ').find((d) => d.startsWith(`${name} `));
  return found ? found.split(' ').slice(1) : [];
}

describe('site Content-Security-Policy', () => {
  it('names the Cognito endpoint of the region, the upload and asset buckets and the API Gateway of the region, never *.amazonaws.com', () => {
    const policy = headerPolicy();
    expect(policy).not.toMatch(/\*\.amazonaws\.com|\*\.amazoncognito\.com|https:\/\/\*\.<AWS::URLSuffix>/);
    const bucket = (name: string) =>
      `https://imaging-dev-${name}-<AWS::AccountId>-<AWS::Region>.s3.<AWS::Region>.<AWS::URLSuffix>`;
    expect(directive(policy, 'connect-src')).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://cognito-idp.<AWS::Region>.<AWS::URLSuffix>',
        'https://*.execute-api.<AWS::Region>.<AWS::URLSuffix>',
        bucket('uploads'),
        bucket('assets'),
      ]),
    );
    expect(policy).not.toContain('imaging-dev-studies');
    expect(directive(policy, 'img-src')).toEqual(expect.arrayContaining([bucket('assets')]));
    expect(directive(policy, 'img-src')).not.toContain(bucket('uploads'));
    expect(directive(policy, 'form-action')).toEqual(["'self'"]);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it("adds the hosted UI of this stage's Cognito domain, and only it, when single sign-on is configured", () => {
    const policy = headerPolicy({ authDomainPrefix: 'imaging-dev-sso' });
    const hostedUi = 'https://imaging-dev-sso.auth.<AWS::Region>.amazoncognito.com';
    expect(directive(policy, 'form-action')).toEqual(["'self'", hostedUi]);
    expect(directive(policy, 'connect-src')).toContain(hostedUi);
  });
});

describe('published site', () => {
  const siteDir = mkdtempSync(path.join(tmpdir(), 'iws-site-'));
  afterAll(() => rmSync(siteDir, { recursive: true, force: true }));

  it('publishes no source maps, and an index.html whose policy pins the exact API origin', () => {
    mkdirSync(path.join(siteDir, 'assets'));
    writeFileSync(
      path.join(siteDir, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body></body></html>',
    );
    writeFileSync(path.join(siteDir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(siteDir, 'assets', 'index-abc.js.map'), '{"sources":["web/src/main.tsx"]}');

    const scope = app();
    const config = loadStageConfig(scope.node);
    const stage = new Stack(scope, 'stage');
    // The stage stack only holds the references the web stack imports; one resource keeps its template valid.
    new CfnWaitConditionHandle(stage, 'Anchor');
    const web = new WebStack(scope, 'web', {
      config,
      distribution: Distribution.fromDistributionAttributes(stage, 'Site', {
        distributionId: 'E2EXAMPLE',
        domainName: 'd111111abcdef8.cloudfront.net',
      }),
      userPool: UserPool.fromUserPoolId(stage, 'Pool', 'eu-west-1_example'),
      userPoolClient: UserPoolClient.fromUserPoolClientId(stage, 'Client', 'client-id'),
      apiBaseUrl: API_BASE_URL,
      dataKey: Key.fromKeyArn(
        stage,
        'Key',
        'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      ),
      siteBuildDir: siteDir,
    });
    const assembly = scope.synth();
    const template = assembly.getStackByName(web.stackName).template as {
      Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
    };
    const deployments = Object.entries(template.Resources).filter(([, r]) => r.Type === 'Custom::CDKBucketDeployment');
    const published = (logicalIdPrefix: string) => {
      const [, deployment] = deployments.find(([id]) => id.startsWith(logicalIdPrefix))!;
      return (deployment.Properties.SourceObjectKeys as string[]).map((key) =>
        path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`),
      );
    };

    const siteFiles = published('SiteFiles').flatMap((dir) => readdirSync(dir, { recursive: true }).map(String));
    expect(siteFiles.sort()).toEqual(['assets', path.join('assets', 'index-abc.js')]);

    const pages = published('RuntimeConfig')
      .flatMap((dir) => readdirSync(dir).map((name) => path.join(dir, name)))
      .filter((file) => file.endsWith('index.html'));
    expect(pages).toHaveLength(1);
    const html = readFileSync(pages[0]!, 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(directive(meta, 'connect-src')).toContain('https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com');
    expect(meta).not.toMatch(/\*\.execute-api|\*\.amazonaws\.com/);
    expect(html).toContain('<title>x</title>');
  });

  it('builds the site without public source maps', async () => {
    const file = pathToFileURL(path.join(REPOSITORY_ROOT, 'web/vite.config.ts')).href;
    const { default: viteConfig } = (await import(file)) as { default: unknown };
    const config = (viteConfig as (env: ConfigEnv) => UserConfig)({ command: 'build', mode: 'production' });
    expect([false, 'hidden']).toContain(config.build?.sourcemap);
  });
});
