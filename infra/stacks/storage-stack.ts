import { Aws, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { EventSourceMapping, FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { HttpMethods, ObjectLockRetention, type Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '#infra/config.ts';
import { ImagingFunction } from '#infra/constructs/imaging-function.ts';
import { createImagingTable } from '#infra/constructs/imaging-table.ts';
import { AUDIT_APPENDER_DECLARATION } from '#infra/function-declarations.ts';
import { createPrivateBucket, noncurrentVersionRule } from '#infra/constructs/private-bucket.ts';
import { resourceNames, type DataBucket } from '#infra/resource-names.ts';
import { EXPORT_RETENTION_DAYS, studyKeys } from '#shared/domain/object-keys.ts';
import { AUDIT_PENDING_STREAM } from '#shared/definitions/table/keys.ts';

export type StorageStackProps = StackProps & {
  config: StageConfig;
  /** Origins the browser uploads from (the CloudFront site, plus any configured custom domain). */
  siteOrigins: string[];
};

/**
 * Everything that holds data: the customer-managed key, the single table, the data buckets (uploads, studies,
 * assets), their access-log bucket and the pseudonymisation secret. Medical data survives stack deletion
 * outside dev (RETAIN), everything is encrypted with the stage's key and reachable over TLS only.
 */
export class StorageStack extends Stack {
  readonly dataKey: Key;
  readonly table: Table;
  readonly buckets: Record<DataBucket, Bucket>;
  readonly logsBucket: Bucket;
  readonly pseudonymSecret: Secret;
  readonly auditAppender: ImagingFunction;
  readonly auditDigestKey: Key;
  readonly auditDigestBucket: Bucket;

  constructor(scope: Construct, id: string, props: StorageStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    this.dataKey = new Key(this, 'DataKey', {
      alias: names.dataKeyAlias,
      description: `Imaging Workspace ${config.stage}: table, buckets, secret and log groups`,
      enableKeyRotation: true,
      removalPolicy: config.dataRemovalPolicy,
    });
    // CloudWatch Logs encrypts this stage's log groups with the key; scoped to log groups of this account and region.
    this.dataKey.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: [
          'kms:Encrypt',
          'kms:Decrypt',
          'kms:ReEncryptFrom',
          'kms:ReEncryptTo',
          'kms:GenerateDataKey',
          'kms:GenerateDataKeyWithoutPlaintext',
          'kms:DescribeKey',
        ],
        resources: ['*'],
        conditions: {
          ArnLike: {
            'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*`,
          },
        },
      }),
    );

    this.table = createImagingTable(this, 'Table', { config, tableName: names.table, encryptionKey: this.dataKey });

    this.logsBucket = createPrivateBucket(this, 'AccessLogsBucket', {
      bucketName: names.logsBucket,
      removalPolicy: config.dataRemovalPolicy,
      versioned: false,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(config.isProduction ? 2190 : 90) }],
    });
    Validations.of(this.logsBucket).acknowledge(
      { id: 'AwsSolutions-S1', reason: 'This is the server access log bucket; logging it into itself would loop.' },
      {
        id: 'HIPAA.Security-S3BucketLoggingEnabled',
        reason: 'This is the server access log bucket; logging it into itself would loop.',
      },
      {
        id: 'HIPAA.Security-S3DefaultEncryptionKMS',
        reason: 'S3 server access log delivery does not support SSE-KMS target buckets; SSE-S3 is used.',
      },
      {
        id: 'HIPAA.Security-S3BucketVersioningEnabled',
        reason: 'Access logs are append-only and expire by lifecycle; versions add nothing.',
      },
      { id: 'HIPAA.Security-S3BucketReplicationEnabled', reason: 'Access logs are not replicated across regions.' },
    );

    const accessLogs = (prefix: DataBucket) => ({ bucket: this.logsBucket, prefix: `${prefix}/` });
    this.buckets = {
      // Raw uploads are identifiable: de-identified within minutes, whatever is left expires, abandoned multipart uploads are aborted.
      uploads: createPrivateBucket(this, 'UploadsBucket', {
        bucketName: names.buckets.uploads,
        encryptionKey: this.dataKey,
        removalPolicy: config.dataRemovalPolicy,
        versioned: false,
        accessLogs: accessLogs('uploads'),
        lifecycleRules: [
          {
            id: 'expire-raw-uploads',
            expiration: Duration.days(config.rawUploadExpiryDays),
            abortIncompleteMultipartUploadAfter: Duration.days(config.abortMultipartAfterDays),
          },
        ],
        cors: [
          {
            allowedOrigins: props.siteOrigins,
            allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
            allowedHeaders: ['*'],
            // The browser must read each part's ETag to complete a multipart upload.
            exposedHeaders: ['ETag'],
            maxAge: 3000,
          },
        ],
      }),
      studies: createPrivateBucket(this, 'StudiesBucket', {
        bucketName: names.buckets.studies,
        encryptionKey: this.dataKey,
        removalPolicy: config.dataRemovalPolicy,
        versioned: true,
        accessLogs: accessLogs('studies'),
        lifecycleRules: [
          noncurrentVersionRule(config.noncurrentVersionDays),
          // WADO-RS answers staged for their client (docs/dicom-intake.md#large-retrievals): a day, then gone.
          { id: 'StagedRetrievals', prefix: studyKeys.retrievalPrefix, expiration: Duration.days(1) },
          // Dataset exports (docs/exports.md): kept as long as their links may be issued, then gone.
          { id: 'DatasetExports', prefix: studyKeys.exportPrefix, expiration: Duration.days(EXPORT_RETENTION_DAYS) },
        ],
      }),
      assets: createPrivateBucket(this, 'AssetsBucket', {
        bucketName: names.buckets.assets,
        encryptionKey: this.dataKey,
        removalPolicy: config.dataRemovalPolicy,
        versioned: true,
        accessLogs: accessLogs('assets'),
        lifecycleRules: [noncurrentVersionRule(config.noncurrentVersionDays)],
        // Viewer downloads of processed assets use presigned GET URLs from the site.
        cors: [
          {
            allowedOrigins: props.siteOrigins,
            allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
            allowedHeaders: ['*'],
            exposedHeaders: ['ETag', 'Content-Length'],
            maxAge: 3000,
          },
        ],
      }),
    };
    Validations.of(this.buckets.uploads).acknowledge(
      {
        id: 'HIPAA.Security-S3BucketVersioningEnabled',
        reason: 'Raw identifiable uploads must disappear once de-identified; versioning would keep deleted PHI around.',
      },
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason:
          'Raw identifiable uploads live for hours; replicating PHI that is about to be deleted would widen exposure.',
      },
    );
    for (const bucket of [this.buckets.studies, this.buckets.assets]) {
      Validations.of(bucket).acknowledge({
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason:
          'Versioning keeps prior versions for recovery; cross-region replication is decided per deployment (data residency of each hospital).',
      });
    }

    this.pseudonymSecret = new Secret(this, 'PseudonymSecret', {
      secretName: names.pseudonymSecret,
      description:
        'Per-deployment key for UID remapping and patient aliases (HMAC); never leaves the pipeline and dataset functions',
      encryptionKey: this.dataKey,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: config.dataRemovalPolicy,
    });
    Validations.of(this.pseudonymSecret).acknowledge(
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotating the pseudonymisation key would break re-upload linkage (the same input UID must map to the same output UID) by design.',
      },
      {
        id: 'HIPAA.Security-SecretsManagerRotationEnabled',
        reason:
          'Rotating the pseudonymisation key would break re-upload linkage (the same input UID must map to the same output UID) by design.',
      },
    );

    const digests = this.createAuditDigests(config);
    this.auditDigestKey = digests.key;
    this.auditDigestBucket = digests.bucket;

    // The one writer of the audit chain (docs/domain.md#how-an-event-travels), fed by the table's stream; functions
    // invoke it by name (resourceNames().auditAppender), so it lives with the data every other stack depends on.
    this.auditAppender = new ImagingFunction(this, {
      config,
      declaration: AUDIT_APPENDER_DECLARATION,
      dataKey: this.dataKey,
      pseudonymSecret: this.pseudonymSecret,
      functionName: names.auditAppender,
      concurrencyBound:
        "Triggered by the table's stream, one batch per shard at a time, and invoked before a verification: the shards bound it.",
    });
    this.addAuditStream();

    this.addBackups(config);
  }

  /**
   * The table's stream hands the audit appender the pending events requests wrote (docs/domain.md#how-an-event-travels):
   * inserted items of the pending entity only, filtered before the function runs, one batch per shard at a time (a
   * hospital's pending events share a partition, so a shard, so one appender drains a hospital at a time). The stream
   * grants are named on this table's streams, without the wildcard a generated grant would add.
   */
  private addAuditStream(): void {
    const streamArn = this.table.tableStreamArn;
    if (!streamArn) throw new Error('The table has no stream for the audit appender');
    this.auditAppender.executionRole.addToPolicy(
      new PolicyStatement({
        // The actions of the DynamoDB developer guide's policy for a Lambda reading a stream, on this stream only.
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [streamArn],
      }),
    );
    new EventSourceMapping(this, 'AuditPendingStream', {
      target: this.auditAppender,
      eventSourceArn: streamArn,
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: AUDIT_PENDING_STREAM.batchSize,
      retryAttempts: AUDIT_PENDING_STREAM.retryAttempts,
      parallelizationFactor: 1,
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(AUDIT_PENDING_STREAM.entity) } } },
        }),
      ],
    });
  }

  /** Daily backups of the table kept 35 days (PITR covers the last 35 days to the second), monthly ones a year in prod. */
  private addBackups(config: StageConfig): void {
    const vault = new BackupVault(this, 'BackupVault', {
      backupVaultName: `${config.prefix}-backups`,
      encryptionKey: this.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    const plan = new BackupPlan(this, 'BackupPlan', { backupPlanName: `${config.prefix}-table`, backupVault: vault });
    plan.addRule(BackupPlanRule.daily());
    if (config.isProduction) {
      plan.addRule(BackupPlanRule.monthly1Year());
    }
    const selection = plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(this.table)] });
    Validations.of(selection).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason: 'The AWS Backup service role policy is what AWS Backup requires to snapshot the table; AWS maintains it.',
    });
  }

  /**
   * The audit chain's signed digests (docs/domain.md#signed-digests): an asymmetric key (ECC_NIST_P256, SIGN_VERIFY)
   * whose private half never leaves KMS, and a versioned bucket with S3 Object Lock (compliance mode in production,
   * governance elsewhere so a test stage can be emptied) whose policy takes conditional puts only (`If-None-Match`,
   * so a digest is never replaced) and refuses every delete. Both are kept when the stack is deleted.
   */
  private createAuditDigests(config: StageConfig): { key: Key; bucket: Bucket } {
    const names = resourceNames(config);
    const key = new Key(this, 'AuditDigestKey', {
      alias: names.auditDigestKeyAlias,
      description: `Imaging Workspace ${config.stage}: signs the audit trail's hourly digests`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(key).acknowledge({
      id: 'AwsSolutions-KMS5',
      reason:
        'KMS rotates symmetric keys only; an asymmetric signing key is not rotatable, and its public key must keep verifying every digest it signed.',
    });
    const retentionDays = config.isProduction ? 2190 : 30;
    const bucket = createPrivateBucket(this, 'AuditDigestBucket', {
      bucketName: names.auditDigestBucket,
      encryptionKey: this.dataKey,
      removalPolicy: RemovalPolicy.RETAIN,
      versioned: true,
      accessLogs: { bucket: this.logsBucket, prefix: 'audit-digests/' },
      objectLock: config.isProduction
        ? ObjectLockRetention.compliance(Duration.days(retentionDays))
        : ObjectLockRetention.governance(Duration.days(retentionDays)),
    });
    // A digest is written once: a put that could replace one (no If-None-Match) and every delete are refused.
    bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'DigestsAreWrittenOnce',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['s3:PutObject'],
        resources: [bucket.arnForObjects('*')],
        conditions: { Null: { 's3:if-none-match': 'true' } },
      }),
    );
    bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'DigestsAreNeverDeleted',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:BypassGovernanceRetention'],
        resources: [bucket.arnForObjects('*')],
      }),
    );
    Validations.of(bucket).acknowledge({
      id: 'HIPAA.Security-S3BucketReplicationEnabled',
      reason:
        'Digests are small, signed and kept under Object Lock; cross-region replication is decided per deployment (data residency of each hospital).',
    });
    return { key, bucket };
  }
}
