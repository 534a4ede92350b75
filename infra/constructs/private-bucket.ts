import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectOwnership,
  type CorsRule,
  type IBucket,
  type LifecycleRule,
  type ObjectLockRetention,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export type PrivateBucketProps = {
  bucketName: string;
  removalPolicy: RemovalPolicy;
  /** Customer-managed key; without one the bucket uses SSE-S3 (only for buckets that never hold PHI). */
  encryptionKey?: IKey;
  versioned: boolean;
  /** Server access logs go here under `<prefix>/`; only the log buckets themselves have none. */
  accessLogs?: { bucket: IBucket; prefix: string };
  lifecycleRules?: LifecycleRule[];
  cors?: CorsRule[];
  /** CloudFront standard logging still writes with ACLs, so its target bucket must accept object-writer ACLs. */
  objectOwnership?: ObjectOwnership;
  /** S3 Object Lock with this default retention (the bucket must be versioned). */
  objectLock?: ObjectLockRetention;
};

/**
 * The one way this app makes a bucket: private (all public access blocked), TLS-only (a bucket policy denies
 * aws:SecureTransport=false), encrypted, and logged. Callers only choose what differs per purpose.
 */
export function createPrivateBucket(scope: Construct, id: string, props: PrivateBucketProps): Bucket {
  return new Bucket(scope, id, {
    bucketName: props.bucketName,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    ...(props.encryptionKey
      ? { encryption: BucketEncryption.KMS, encryptionKey: props.encryptionKey, bucketKeyEnabled: true }
      : { encryption: BucketEncryption.S3_MANAGED }),
    versioned: props.versioned,
    objectOwnership: props.objectOwnership ?? ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: props.removalPolicy,
    ...(props.accessLogs
      ? { serverAccessLogsBucket: props.accessLogs.bucket, serverAccessLogsPrefix: props.accessLogs.prefix }
      : {}),
    lifecycleRules: props.lifecycleRules ?? [],
    ...(props.cors ? { cors: props.cors } : {}),
    ...(props.objectLock ? { objectLockEnabled: true, objectLockDefaultRetention: props.objectLock } : {}),
  });
}

/** Lifecycle of a versioned data bucket: old versions are kept for recovery, then removed. */
export function noncurrentVersionRule(days: number): LifecycleRule {
  return {
    id: 'expire-noncurrent-versions',
    noncurrentVersionExpiration: Duration.days(days),
    abortIncompleteMultipartUploadAfter: Duration.days(1),
    expiredObjectDeleteMarker: true,
  };
}
