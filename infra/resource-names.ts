import { Aws } from 'aws-cdk-lib';
import type { StageConfig } from './config.ts';
import { ENV } from '#shared/definitions/env.ts';
import type { DataBucket } from './function-declarations.ts';

/**
 * Physical names of the shared data resources, derived from the stage alone. Stacks refer to each other's
 * data by these names (IAM statements, Lambda environment) instead of cross-stack exports, so a grant reads
 * the same in every stack and a stack can be redeployed without unpicking exports. Bucket names carry the
 * account and region because S3 names are global.
 */
export type ResourceNames = ReturnType<typeof resourceNames>;

export { DATA_BUCKETS, type DataBucket } from './function-declarations.ts';

export function resourceNames(config: Pick<StageConfig, 'prefix'>) {
  const bucket = (purpose: string) => `${config.prefix}-${purpose}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
  return {
    table: config.prefix,
    buckets: {
      uploads: bucket('uploads'),
      studies: bucket('studies'),
      assets: bucket('assets'),
    } satisfies Record<DataBucket, string>,
    logsBucket: bucket('logs'),
    auditDigestBucket: bucket('audit-digests'),
    auditDigestKeyAlias: `alias/${config.prefix}-audit-digests`,
    siteBucket: bucket('site'),
    siteLogsBucket: bucket('site-logs'),
    stateMachine: `${config.prefix}-pipeline`,
    pseudonymSecret: `${config.prefix}/pseudonym-key`,
    dataKeyAlias: `alias/${config.prefix}-data`,
    userPool: `${config.prefix}-users`,
    api: `${config.prefix}-api`,
    mailConfigurationSet: `${config.prefix}-mail`,
    auditAppender: `${config.prefix}-audit-appender`,
    jobWorker: `${config.prefix}-job-worker`,
  };
}

export function bucketArn(name: string): string {
  return `arn:${Aws.PARTITION}:s3:::${name}`;
}

export function tableArn(name: string): string {
  return `arn:${Aws.PARTITION}:dynamodb:${Aws.REGION}:${Aws.ACCOUNT_ID}:table/${name}`;
}

export function stateMachineArn(name: string): string {
  return `arn:${Aws.PARTITION}:states:${Aws.REGION}:${Aws.ACCOUNT_ID}:stateMachine:${name}`;
}

export function sesArn(resource: string): string {
  return `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
}

export function functionArn(name: string): string {
  return `arn:${Aws.PARTITION}:lambda:${Aws.REGION}:${Aws.ACCOUNT_ID}:function:${name}`;
}

/**
 * What a function outside the API stack needs to send mail from the API stack's sender and configuration set, whose
 * names follow from the stage's configuration alone (docs/deployment.md#e-mail).
 */
export function stageMail(config: Pick<StageConfig, 'prefix' | 'mailFrom'>) {
  const domain = config.mailFrom?.split('@')[1];
  const mailConfigurationSet = resourceNames(config).mailConfigurationSet;
  return {
    ...(domain ? { mailIdentityArn: sesArn(`identity/${domain}`) } : {}),
    mailConfigurationSetArn: sesArn(`configuration-set/${mailConfigurationSet}`),
    environment: {
      // Empty without a configured sender, as for the API's functions.
      [ENV.MAIL_FROM]: config.mailFrom ?? '',
      [ENV.MAIL_CONFIGURATION_SET]: mailConfigurationSet,
    },
  };
}
