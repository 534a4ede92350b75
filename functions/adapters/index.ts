import { randomUUID } from 'node:crypto';
import { requireResource, serverEnv, type ServerEnv } from '#functions/lib/env.ts';
import { ENV } from '#shared/definitions/env.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { createDocumentClient, createDynamoClient, type Table } from './dynamo/client.ts';
import { createDynamoIdempotency } from './dynamo/idempotency-store.ts';
import { createAuditChainWriter, createAuditLog } from './dynamo/audit-log.ts';
import { createDeferredAuditWriter } from './lambda/audit-appender.ts';
import { createJobStarter } from './lambda/job-starter.ts';
import { createJobStore } from './dynamo/jobs-store.ts';
import { createDatasetRepository } from './dynamo/datasets-repository.ts';
import { createDirectory } from './dynamo/directory.ts';
import { createOrganisationStore } from './dynamo/organisation.ts';
import { createIdentityAdmin, createMachineClients } from './cognito/identity-admin.ts';
import { createIntegrationStore } from './dynamo/integrations-store.ts';
import { createIntakeStore } from './dynamo/intake-store.ts';
import { createDicomIndex } from './dynamo/dicom-index.ts';
import { DICOM_CALLED_AE_TITLE } from '#shared/domain/intake/listener.ts';
import { describeTable } from './dynamo/health.ts';
import { createNotificationInbox } from './dynamo/notifications.ts';
import { createNotificationLedger } from './dynamo/notification-ledger.ts';
import { createPolicyRepository } from './dynamo/policies-repository.ts';
import { createRunSlotStore } from './dynamo/run-slots.ts';
import { createSettingsStore } from './dynamo/settings-store.ts';
import { createSsoStore } from './dynamo/sso-store.ts';
import { createScimTokenStore } from './dynamo/scim-store.ts';
import { createIdentityProviders } from './cognito/identity-providers.ts';
import { createJsonFetcher } from './http/json-fetcher.ts';
import { createSamlMetadataReader } from './saml/metadata-reader.ts';
import { createAvatarSigner } from './s3/avatar-signer.ts';
import { createUploadRepository } from './dynamo/uploads-repository.ts';
import { createPageTokens, createPseudonymizer, createShareCodeHasher, createTokenMint } from './crypto.ts';
import { createInvitationDirectory, createInvitationRepository } from './dynamo/invitations-repository.ts';
import { createSesMailer } from './mail/ses-mailer.ts';
import { createObjectStore, createS3Client } from './s3/object-store.ts';
import { createSecretSource } from './secrets.ts';
import { createPipelineStarter } from './sfn/pipeline-starter.ts';
import type { BucketName } from '#shared/domain/storage.ts';
import { DEFAULT_SHARE_LIMITS } from '#shared/domain/shares/ports.ts';
import { createShareStore } from './dynamo/shares-store.ts';
import { createSnsSms } from './sms/sns-sms.ts';
import { createS3DigestStore } from './s3/digest-store.ts';
import { createKmsClient, createKmsDigestSigner } from './kms/digest-signer.ts';

/**
 * Builds every port from the environment (names in shared/definitions/env.ts; endpoint overrides where set). A host
 * that holds the pseudonym key itself (a test process with no Secrets Manager) passes its own source of it; the ports
 * built on the key (page tokens, pseudonymizer) then use that source too.
 */
export async function createAwsDeps(
  env: ServerEnv = serverEnv(),
  sources: { pseudonymSecret?: () => Promise<string> } = {},
): Promise<ServerDeps> {
  const region = env.AWS_REGION;
  // Names are read on use: a function may reach only what its declaration grants, and fails naming the variable if not.
  const dynamo = createDynamoClient({ region, endpoint: env.DYNAMODB_ENDPOINT });
  const table: Table = {
    doc: createDocumentClient({ region }, dynamo),
    get tableName() {
      return requireResource(env, ENV.TABLE_NAME);
    },
  };
  const buckets: Record<BucketName, string> = {
    get uploads() {
      return requireResource(env, ENV.UPLOADS_BUCKET);
    },
    get studies() {
      return requireResource(env, ENV.STUDIES_BUCKET);
    },
    get assets() {
      return requireResource(env, ENV.ASSETS_BUCKET);
    },
  };
  const objects = createObjectStore({
    region,
    buckets,
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT ?? env.S3_ENDPOINT,
  });
  const pseudonymSecret =
    sources.pseudonymSecret ??
    createSecretSource({
      region,
      secretArn: () => requireResource(env, ENV.PSEUDONYM_SECRET_ARN),
      endpoint: env.SECRETS_MANAGER_ENDPOINT,
    });
  // The secret is fetched on first use, so routes that never need it (health) never call Secrets Manager.
  const pageTokens = createPageTokens(pseudonymSecret);
  // Only the audit appender writes the chain (docs/domain.md#how-an-event-travels): a deployed function, given its
  // name, writes each event as a pending item the appender chains behind; without one (a process that writes the
  // table itself, as the CLI and most tests do) the chain is written at once.
  const auditWriter = env.AUDIT_APPENDER_FUNCTION
    ? createDeferredAuditWriter(
        { region, functionName: env.AUDIT_APPENDER_FUNCTION, endpoint: env.LAMBDA_ENDPOINT },
        table,
      )
    : createAuditChainWriter(table);
  return {
    datasets: createDatasetRepository(table, auditWriter),
    audit: createAuditLog(table, undefined, auditWriter),
    // The digest bucket and key are named only to the functions granted them (the digest writer, verification).
    digests: {
      store: createS3DigestStore(createS3Client(region, env.S3_ENDPOINT), () =>
        requireResource(env, ENV.AUDIT_DIGEST_BUCKET),
      ),
      signer: createKmsDigestSigner(createKmsClient(region, env.KMS_ENDPOINT), () =>
        requireResource(env, ENV.AUDIT_DIGEST_KEY_ID),
      ),
    },
    directory: createDirectory(table),
    organisation: createOrganisationStore(table),
    jobs: createJobStore(table),
    jobStarter: createJobStarter({ region, functionName: env.JOB_WORKER_FUNCTION, endpoint: env.LAMBDA_ENDPOINT }),
    identity: createIdentityAdmin({
      region,
      endpoint: env.COGNITO_ENDPOINT || undefined,
      userPoolId: () => requireResource(env, ENV.USER_POOL_ID),
    }),
    policies: createPolicyRepository(table),
    settings: createSettingsStore(table),
    avatars: createAvatarSigner(
      createS3Client(region, env.S3_PUBLIC_ENDPOINT ?? env.S3_ENDPOINT),
      () => buckets.assets,
    ),
    uploads: createUploadRepository(table),
    objects,
    pipeline: createPipelineStarter({ region, stateMachineArn: env.STATE_MACHINE_ARN, endpoint: env.SFN_ENDPOINT }),
    runSlots: createRunSlotStore(table),
    pageTokens,
    pseudonymizer: createPseudonymizer(pseudonymSecret),
    pseudonymSecret,
    notifications: createNotificationInbox(table),
    notificationLedger: createNotificationLedger(table),
    health: {
      async failing() {
        const checks: [string, Promise<void>][] = [
          ['table', describeTable(table)],
          ...(Object.keys(buckets) as BucketName[]).map((b): [string, Promise<void>] => [
            `${b} bucket`,
            objects.headBucket(b),
          ]),
        ];
        const results = await Promise.allSettled(checks.map(([, p]) => p));
        return checks.filter((_, i) => results[i]!.status === 'rejected').map(([name]) => name);
      },
    },
    invitations: createInvitationRepository(table),
    invitationDirectory: createInvitationDirectory(table),
    shares: createShareStore(table),
    // Patient share codes go out by SNS (docs/domain.md#shares).
    sms: createSnsSms({ region, endpoint: env.SNS_ENDPOINT }),
    shareLimits: DEFAULT_SHARE_LIMITS,
    mailer: createSesMailer({
      region,
      endpoint: env.SES_ENDPOINT,
      from: () => requireResource(env, ENV.MAIL_FROM),
      configurationSet: () => requireResource(env, ENV.MAIL_CONFIGURATION_SET),
    }),
    tokens: createTokenMint(),
    shareCodes: createShareCodeHasher(),
    integrations: createIntegrationStore(table),
    intake: createIntakeStore(table),
    dicomIndex: createDicomIndex(table),
    machineClients: createMachineClients({
      region,
      endpoint: env.COGNITO_ENDPOINT || undefined,
      userPoolId: () => requireResource(env, ENV.USER_POOL_ID),
    }),
    intakeEndpoints: {
      dicomWebUrl: env.DICOMWEB_URL ?? '',
      tokenUrl: env.OAUTH_TOKEN_URL ?? '',
      ...(env.DICOM_PORT ? { dicomPort: Number(env.DICOM_PORT) } : {}),
      calledAeTitle: DICOM_CALLED_AE_TITLE,
    },
    siteOrigin: env.SITE_ORIGIN ?? '',
    sso: createSsoStore(table),
    scimTokens: createScimTokenStore(table),
    identityProviders: createIdentityProviders({
      region,
      endpoint: env.COGNITO_ENDPOINT || undefined,
      userPoolId: () => requireResource(env, ENV.USER_POOL_ID),
      siteClientId: () => requireResource(env, ENV.USER_POOL_CLIENT_ID),
    }),
    fetchJson: createJsonFetcher(),
    samlMetadata: createSamlMetadataReader(),
    // The hosted login's authorize endpoint sits beside its token endpoint (docs/sso.md#domain-routing).
    hostedLogin: {
      authorizeUrl: (env.OAUTH_TOKEN_URL ?? '').replace(/\/oauth2\/token$/, '/oauth2/authorize'),
      clientId: env.USER_POOL_CLIENT_ID ?? '',
      redirectUri: `${env.SITE_ORIGIN ?? ''}/`,
    },
    clock: { now: () => new Date().toISOString() },
    ids: { newId: () => randomUUID() },
    idempotency: createDynamoIdempotency(dynamo, () => table.tableName),
  };
}
