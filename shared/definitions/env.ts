/**
 * Names of the environment variables the handlers read. Infra sets them on every Lambda (any other host of
 * the handlers sets them likewise), functions/lib/env.ts reads them once through a zod schema. Never spell these
 * literals elsewhere.
 */
export const ENV = {
  STAGE: 'STAGE',
  TABLE_NAME: 'TABLE_NAME',
  UPLOADS_BUCKET: 'UPLOADS_BUCKET',
  STUDIES_BUCKET: 'STUDIES_BUCKET',
  ASSETS_BUCKET: 'ASSETS_BUCKET',
  STATE_MACHINE_ARN: 'STATE_MACHINE_ARN',
  USER_POOL_ID: 'USER_POOL_ID',
  USER_POOL_CLIENT_ID: 'USER_POOL_CLIENT_ID',
  /** Secrets Manager secret (cloud) holding the per-deployment key for UID and patient-alias hashing. */
  PSEUDONYM_SECRET_ARN: 'PSEUDONYM_SECRET_ARN',
  /** Endpoint overrides of the AWS services; unset in a deployed stage, where each client uses its region's. */
  DYNAMODB_ENDPOINT: 'DYNAMODB_ENDPOINT',
  S3_ENDPOINT: 'S3_ENDPOINT',
  /** Endpoint presigned URLs are built for (what the browser reaches); defaults to S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: 'S3_PUBLIC_ENDPOINT',
  SFN_ENDPOINT: 'SFN_ENDPOINT',
  COGNITO_ENDPOINT: 'COGNITO_ENDPOINT',
  LAMBDA_ENDPOINT: 'LAMBDA_ENDPOINT',
  SES_ENDPOINT: 'SES_ENDPOINT',
  SNS_ENDPOINT: 'SNS_ENDPOINT',
  SECRETS_MANAGER_ENDPOINT: 'SECRETS_MANAGER_ENDPOINT',
  KMS_ENDPOINT: 'KMS_ENDPOINT',
  /** Name of the one function that appends to the audit trail; every other writer invokes it (docs/domain.md#audit-trail). */
  AUDIT_APPENDER_FUNCTION: 'AUDIT_APPENDER_FUNCTION',
  /** Name of the job worker, which functions that start a job invoke asynchronously (docs/jobs.md). */
  JOB_WORKER_FUNCTION: 'JOB_WORKER_FUNCTION',
  /** The audit digests (docs/domain.md#signed-digests): their Object Lock bucket and the asymmetric key that signs them. */
  AUDIT_DIGEST_BUCKET: 'AUDIT_DIGEST_BUCKET',
  AUDIT_DIGEST_KEY_ID: 'AUDIT_DIGEST_KEY_ID',
  /** Origin of the site, for CORS on the API. */
  SITE_ORIGIN: 'SITE_ORIGIN',
  /** Sender of the product's e-mail (a verified SES identity in the cloud). */
  MAIL_FROM: 'MAIL_FROM',
  /** SESv2 configuration set every message goes out with (delivery, bounce and complaint events). */
  MAIL_CONFIGURATION_SET: 'MAIL_CONFIGURATION_SET',
  /** DICOM intake (docs/dicom-intake.md): where integrations get tokens, call DICOMweb and send C-STORE. */
  OAUTH_TOKEN_URL: 'OAUTH_TOKEN_URL',
  DICOMWEB_URL: 'DICOMWEB_URL',
  /** The DICOM listener's port (C-STORE SCP): the Network Load Balancer's port. */
  DICOM_PORT: 'DICOM_PORT',
  /** '1' when every connection to the listener opens with a PROXY protocol v2 header (behind the Network Load Balancer). */
  DICOM_PROXY_PROTOCOL: 'DICOM_PROXY_PROTOCOL',
  /** Bytes one C-STORE association may send before it is aborted (2 GiB unless set). */
  DICOM_MAX_ASSOCIATION_BYTES: 'DICOM_MAX_ASSOCIATION_BYTES',
  /** Where the listener writes the instances it is receiving (the OS temp folder unless set). */
  DICOM_SPOOL_DIR: 'DICOM_SPOOL_DIR',
} as const;
