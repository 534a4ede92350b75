import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLE_KEYS } from '#shared/db/table.ts';
import { ENV } from '#shared/env.ts';
import type { StageConfig } from '#infra/config.ts';
import { bucketArn, DATA_BUCKETS, resourceNames, tableArn, type DataBucket } from '#infra/resource-names.ts';

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Context key naming a stand-in entry file for handler entries that do not exist yet. Only tests set it
 * (handlers are written in parallel with the infra); a real synth fails on a missing entry.
 */
export const MISSING_ENTRY_FALLBACK_CONTEXT = 'imaging:missingEntryFallback';

function resolveEntry(scope: Construct, entry: string): string {
  const file = path.join(REPOSITORY_ROOT, entry);
  if (existsSync(file)) return file;
  const fallback: unknown = scope.node.tryGetContext(MISSING_ENTRY_FALLBACK_CONTEXT);
  if (typeof fallback === 'string') return path.resolve(REPOSITORY_ROOT, fallback);
  throw new Error(`Lambda entry ${entry} does not exist (it must export \`handler\`)`);
}

/** What a function may do in a data bucket; each maps to an explicit action list (no `s3:*` style wildcards). */
export type BucketAccess = 'read' | 'write' | 'delete' | 'list' | 'multipart';

const BUCKET_OBJECT_ACTIONS: Record<Exclude<BucketAccess, 'list'>, string[]> = {
  read: ['s3:GetObject', 's3:GetObjectVersion'],
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
  // Presigned multipart uploads are signed with the function's credentials, so it needs the part-level actions.
  multipart: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
};

const BUCKET_ENV: Record<DataBucket, string> = {
  uploads: ENV.UPLOADS_BUCKET,
  studies: ENV.STUDIES_BUCKET,
  assets: ENV.ASSETS_BUCKET,
};

export type ImagingFunctionProps = {
  config: StageConfig;
  /** Entry file relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** Customer-managed key for the log group and for the data this function touches. */
  dataKey: IKey;
  pseudonymSecret: ISecret;
  /**
   * Concurrent executions set aside for (and the most allowed to) this function. Without it, `concurrencyBound`
   * must say what bounds the function's load instead.
   */
  reservedConcurrency?: number;
  concurrencyBound?: string;
};

/**
 * A Lambda with the project's defaults: ARM64 on Node 22, active tracing, an explicit KMS-encrypted log
 * group with the stage's retention, an ESM bundle made by the local esbuild, and a role that starts
 * empty (no AWS managed policy) and gains one explicit statement per `bind*` call. Each `bind*` adds a
 * grant on the named resource with explicit actions; unexpected wildcards therefore surface in cdk-nag.
 */
export class ImagingFunction extends NodejsFunction {
  readonly executionRole: Role;
  private readonly config: StageConfig;
  private readonly dataKey: IKey;
  private readonly pseudonymSecret: ISecret;
  private hasDataKeyGrant = false;

  constructor(scope: Construct, id: string, props: ImagingFunctionProps) {
    const { config } = props;
    const names = resourceNames(config);
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.entry} (${config.stage})`,
    });
    super(scope, id, {
      entry: resolveEntry(scope, props.entry),
      projectRoot: REPOSITORY_ROOT,
      depsLockFilePath: path.join(REPOSITORY_ROOT, 'package-lock.json'),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? 512,
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
      timeout: Duration.seconds(props.timeoutSeconds ?? 29),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      // functions/lib/env.ts requires every data name at cold start; names grant nothing, the bind* calls do.
      environment: {
        [ENV.STAGE]: config.stage,
        [ENV.TABLE_NAME]: names.table,
        ...Object.fromEntries(DATA_BUCKETS.map((bucket) => [BUCKET_ENV[bucket], names.buckets[bucket]])),
        [ENV.PSEUDONYM_SECRET_ARN]: props.pseudonymSecret.secretArn,
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        platform: 'node',
        mainFields: ['module', 'main'],
        // ESM bundles have no `require`; CommonJS dependencies bundled inside still call it.
        banner:
          "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        // The Node 22 runtime ships AWS SDK v3; everything else is bundled.
        externalModules: ['@aws-sdk/*'],
        sourceMap: true,
        minify: true,
      },
    });
    this.executionRole = role;
    this.config = config;
    this.dataKey = props.dataKey;
    this.pseudonymSecret = props.pseudonymSecret;
    logGroup.grantWrite(role);
    Validations.of(role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions. ' +
          'tests/infra asserts that "*" appears only in X-Ray statements.',
      },
      {
        id: 'HIPAA.Security-IAMNoInlinePolicy',
        reason:
          'Each function has its own role whose one policy lists exactly what that function may do; a managed policy would invite sharing grants between functions.',
      },
    );
    if (props.reservedConcurrency === undefined) {
      if (!props.concurrencyBound)
        throw new Error(`${props.entry}: give reservedConcurrency, or concurrencyBound to say what bounds its load`);
      Validations.of(this).acknowledge({ id: 'HIPAA.Security-LambdaConcurrency', reason: props.concurrencyBound });
    }
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is the runtime the handlers, the local twin and CI are built and tested on (bundle target node22); move with them.',
      },
      {
        id: 'HIPAA.Security-LambdaDLQ',
        reason:
          'Invoked synchronously only (API Gateway proxy, Step Functions task); failures are returned to the caller and the pipeline records them (RecordFailure).',
      },
      {
        id: 'HIPAA.Security-LambdaInsideVPC',
        reason:
          'The functions reach only AWS service APIs (DynamoDB, S3, Step Functions, Secrets Manager, KMS, Cognito) over TLS with IAM auth; there is no VPC resource to reach.',
      },
    );
  }

  /** Item access on the single table and its indexes ('describe' only answers a health check). */
  bindTable(access: 'describe' | 'read' | 'readWrite'): this {
    const names = resourceNames(this.config);
    if (access === 'describe') {
      this.executionRole.addToPolicy(
        new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [tableArn(names.table)] }),
      );
      return this;
    }
    const read = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
    const write = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    this.executionRole.addToPolicy(
      new PolicyStatement({
        actions: access === 'read' ? read : [...read, ...write],
        resources: [tableArn(names.table)],
      }),
    );
    // Indexes are read-only in DynamoDB; the index names come from TABLE_KEYS, not a wildcard.
    this.executionRole.addToPolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [TABLE_KEYS.gsi1, TABLE_KEYS.gsi2, TABLE_KEYS.gsi3].map(
          (gsi) => `${tableArn(names.table)}/index/${gsi.index}`,
        ),
      }),
    );
    this.grantDataKey();
    return this;
  }

  /** The listed access to one data bucket ('list' is ListBucket, which HeadBucket also needs). */
  bindBucket(bucket: DataBucket, access: readonly BucketAccess[]): this {
    const name = resourceNames(this.config).buckets[bucket];
    const objectActions = [...new Set(access.flatMap((a) => (a === 'list' ? [] : BUCKET_OBJECT_ACTIONS[a])))];
    if (objectActions.length > 0) {
      const objects = `${bucketArn(name)}/*`;
      this.executionRole.addToPolicy(new PolicyStatement({ actions: objectActions, resources: [objects] }));
      this.acknowledgeWildcard(
        objects,
        `Objects of the ${bucket} bucket are keyed by hospital and dataset ids known only at run time; ` +
          'the bucket itself is fixed and the actions are listed one by one.',
      );
    }
    if (access.includes('list')) {
      this.executionRole.addToPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn(name)] }));
    }
    this.grantDataKey();
    return this;
  }

  /** STATE_MACHINE_ARN plus states:StartExecution on the dataset pipeline only. */
  bindPipelineStart(stateMachineArn: string): this {
    this.addEnvironment(ENV.STATE_MACHINE_ARN, stateMachineArn);
    this.executionRole.addToPolicy(
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }),
    );
    return this;
  }

  /** Administration of users and group membership in the one user pool (users and invitations domains). */
  bindUserPoolAdmin(userPoolArn: string): this {
    this.executionRole.addToPolicy(
      new PolicyStatement({
        actions: [
          'cognito-idp:AdminCreateUser',
          'cognito-idp:AdminGetUser',
          'cognito-idp:AdminUpdateUserAttributes',
          'cognito-idp:AdminAddUserToGroup',
          'cognito-idp:AdminRemoveUserFromGroup',
          'cognito-idp:AdminListGroupsForUser',
          'cognito-idp:AdminDisableUser',
          'cognito-idp:AdminEnableUser',
          'cognito-idp:AdminResetUserPassword',
        ],
        resources: [userPoolArn],
      }),
    );
    return this;
  }

  /** Read access to the pseudonymisation secret (its ARN is in every function's environment, the value is not). */
  bindPseudonymSecret(): this {
    // An explicit statement, not secret.grantRead(): that would edit the storage stack's key policy (a stack cycle).
    this.executionRole.addToPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        resources: [this.pseudonymSecret.secretArn],
      }),
    );
    this.grantDataKey();
    return this;
  }

  /** Data in the table and buckets is encrypted with the stage's key: use it, never administer it. */
  private grantDataKey(): void {
    if (this.hasDataKeyGrant) return;
    this.hasDataKeyGrant = true;
    this.executionRole.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'],
        resources: [this.dataKey.keyArn],
      }),
    );
  }

  /** Acknowledges exactly the cdk-nag IAM5 finding this resource produces, with the reason it is needed. */
  private acknowledgeWildcard(resource: string, reason: string): void {
    const finding = flattenCfnReference(Stack.of(this).resolve(resource));
    Validations.of(this.executionRole).acknowledge({ id: `AwsSolutions-IAM5[Resource::${finding}]`, reason });
  }
}
