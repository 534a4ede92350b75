import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV } from '#shared/definitions/env.ts';
import type { StageConfig } from '#infra/config.ts';
import {
  DATA_BUCKETS,
  grantStatements,
  powertoolsEnvironment,
  type DataBucket,
  type EnvName,
  type FunctionDeclaration,
} from '#infra/function-declarations.ts';
import { bucketArn, functionArn, resourceNames, tableArn } from '#infra/resource-names.ts';

const BUCKET_ENV: Record<DataBucket, EnvName> = {
  uploads: ENV.UPLOADS_BUCKET,
  studies: ENV.STUDIES_BUCKET,
  assets: ENV.ASSETS_BUCKET,
};

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

export type ImagingFunctionProps = {
  config: StageConfig;
  /** Entry, memory, timeout, grants and environment (infra/function-declarations.ts). */
  declaration: FunctionDeclaration;
  /** Customer-managed key for the log group and for the data this function touches. */
  dataKey: IKey;
  pseudonymSecret: ISecret;
  /**
   * Concurrent executions set aside for (and the most allowed to) this function. Without it, `concurrencyBound`
   * must say what bounds the function's load instead.
   */
  reservedConcurrency?: number;
  concurrencyBound?: string;
  /** Where the declaration grants them: the pipeline it starts, the user pool it administers. */
  stateMachineArn?: string;
  userPoolArn?: string;
  /** SES identity and configuration set, where the declaration sends mail. */
  mailIdentityArn?: string;
  mailConfigurationSetArn?: string;
  /** The asymmetric key that signs the audit digests, where the declaration signs or verifies them. */
  auditDigestKeyArn?: string;
  /** A fixed name, where other functions reach this one by name (the audit appender). */
  functionName?: string;
  /** Values of declared variables that are not the stage's data names (user pool ids, site origin). */
  environment?: Partial<Record<EnvName, string>>;
};

/**
 * How every function is bundled: an ESM bundle by the local esbuild with everything inside, the AWS SDK included,
 * so the cloud runs the SDK version the tests and the twin ran (not whatever the runtime ships).
 */
export const LAMBDA_BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  // ESM bundles have no `require`; CommonJS dependencies bundled inside still call it.
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  externalModules: [],
  bundleAwsSDK: true,
  sourceMap: true,
  minify: true,
};

/**
 * A Lambda with the project's defaults: ARM64 on Node 22, active tracing, an explicit KMS-encrypted log
 * group with the stage's retention, an ESM bundle made by the local esbuild, and a role that starts
 * empty (no AWS managed policy) and gains one explicit statement per `bind*` call. Each `bind*` adds a
 * grant on the named resource with explicit actions; unexpected wildcards therefore surface in cdk-nag.
 */
export class ImagingFunction extends NodejsFunction {
  readonly executionRole: Role;
  readonly declaration: FunctionDeclaration;

  constructor(scope: Construct, props: ImagingFunctionProps) {
    const { config, declaration } = props;
    const id = declaration.id;
    const names = resourceNames(config);
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${declaration.entry} (${config.stage})`,
    });
    const values: Partial<Record<EnvName, string>> = {
      [ENV.STAGE]: config.stage,
      [ENV.TABLE_NAME]: names.table,
      ...Object.fromEntries(DATA_BUCKETS.map((bucket) => [BUCKET_ENV[bucket], names.buckets[bucket]])),
      [ENV.PSEUDONYM_SECRET_ARN]: props.pseudonymSecret.secretArn,
      [ENV.AUDIT_APPENDER_FUNCTION]: names.auditAppender,
      [ENV.JOB_WORKER_FUNCTION]: names.jobWorker,
      [ENV.AUDIT_DIGEST_BUCKET]: names.auditDigestBucket,
      ...(props.auditDigestKeyArn ? { [ENV.AUDIT_DIGEST_KEY_ID]: props.auditDigestKeyArn } : {}),
      ...(props.stateMachineArn ? { [ENV.STATE_MACHINE_ARN]: props.stateMachineArn } : {}),
      ...props.environment,
    };
    const environment: Record<string, string> = {};
    for (const name of declaration.env) {
      const value = values[name];
      if (value === undefined) throw new Error(`${declaration.id} declares ${name} but its stack gives no value`);
      environment[name] = value;
    }
    super(scope, id, {
      entry: resolveEntry(scope, declaration.entry),
      projectRoot: REPOSITORY_ROOT,
      depsLockFilePath: path.join(REPOSITORY_ROOT, 'package-lock.json'),
      handler: 'handler',
      ...(props.functionName ? { functionName: props.functionName } : {}),
      description: declaration.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: declaration.memoryMb,
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
      timeout: Duration.seconds(declaration.timeoutSeconds),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: { ...environment, ...powertoolsEnvironment(declaration), NODE_OPTIONS: '--enable-source-maps' },
      bundling: LAMBDA_BUNDLING,
    });
    this.executionRole = role;
    this.declaration = declaration;
    logGroup.grantWrite(role);
    this.grantDeclared(props);
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
        throw new Error(
          `${props.declaration.entry}: give reservedConcurrency, or concurrencyBound to say what bounds its load`,
        );
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

  /** The declaration's statements, on the stage's resources. */
  private grantDeclared(props: ImagingFunctionProps): void {
    const names = resourceNames(props.config);
    const needs = (what: string, value: string | undefined): string => {
      if (value) return value;
      throw new Error(`${props.declaration.id} is granted ${what} but its stack gives no ARN for it`);
    };
    const statements = grantStatements(props.declaration, {
      table: tableArn(names.table),
      buckets: {
        uploads: bucketArn(names.buckets.uploads),
        studies: bucketArn(names.buckets.studies),
        assets: bucketArn(names.buckets.assets),
      },
      get stateMachine() {
        return needs('the pipeline', props.stateMachineArn);
      },
      pseudonymSecret: props.pseudonymSecret.secretArn,
      get userPool() {
        return needs('the user pool', props.userPoolArn);
      },
      dataKey: props.dataKey.keyArn,
      auditAppender: functionArn(names.auditAppender),
      jobWorker: functionArn(names.jobWorker),
      auditDigestBucket: bucketArn(names.auditDigestBucket),
      get auditDigestKey() {
        return needs('the audit digest key', props.auditDigestKeyArn);
      },
      ...(props.mailIdentityArn ? { mailIdentity: props.mailIdentityArn } : {}),
      get mailConfigurationSet() {
        return needs('mail', props.mailConfigurationSetArn);
      },
    });
    for (const statement of statements) {
      const { effect, ...rest } = statement;
      this.executionRole.addToPolicy(
        new PolicyStatement({ ...rest, effect: effect === 'Deny' ? Effect.DENY : Effect.ALLOW }),
      );
    }
    const digests = `${bucketArn(names.auditDigestBucket)}/*`;
    if (statements.some((s) => s.resources.includes(digests)))
      this.acknowledgeWildcard(
        digests,
        'Audit digests are keyed by hospital id and chain position, known only at run time; the bucket is fixed, the actions are listed one by one and none deletes (Object Lock keeps every version).',
      );
    for (const bucket of DATA_BUCKETS) {
      const objects = `${bucketArn(names.buckets[bucket])}/*`;
      if (!statements.some((s) => s.resources.includes(objects))) continue;
      this.acknowledgeWildcard(
        objects,
        `Objects of the ${bucket} bucket are keyed by hospital and dataset ids known only at run time; ` +
          'the bucket itself is fixed and the actions are listed one by one.',
      );
    }
  }

  /** Acknowledges exactly the cdk-nag IAM5 finding this resource produces, with the reason it is needed. */
  private acknowledgeWildcard(resource: string, reason: string): void {
    const finding = flattenCfnReference(Stack.of(this).resolve(resource));
    Validations.of(this.executionRole).acknowledge({ id: `AwsSolutions-IAM5[Resource::${finding}]`, reason });
  }
}
