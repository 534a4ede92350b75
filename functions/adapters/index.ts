import { randomUUID } from 'node:crypto';
import { requireResource, serverEnv, type ServerEnv } from '#functions/lib/env.ts';
import { ENV } from '#shared/env.ts';
import type { ServerDeps } from '#functions/lib/deps.ts';
import { createDocumentClient, type Table } from './dynamo/client.ts';
import { createAuditLog } from './dynamo/audit-log.ts';
import { createDatasetRepository } from './dynamo/datasets-repository.ts';
import { createDirectory } from './dynamo/directory.ts';
import { createOrganisationStore } from './dynamo/organisation.ts';
import { createIdentityAdmin } from './cognito/identity-admin.ts';
import { describeTable } from './dynamo/health.ts';
import { createPolicyRepository } from './dynamo/policies-repository.ts';
import { createRunSlotStore } from './dynamo/run-slots.ts';
import { createUploadRepository } from './dynamo/uploads-repository.ts';
import { createPageTokens, createPseudonymizer } from './crypto.ts';
import { createObjectStore } from './s3/object-store.ts';
import { createSecretSource } from './secrets.ts';
import { createPipelineStarter } from './sfn/pipeline-starter.ts';
import type { BucketName } from '#shared/domain/storage.ts';

/** Builds every port from the environment: the same code in Lambda and in the local twin (endpoints differ). */
export async function createAwsDeps(env: ServerEnv = serverEnv()): Promise<ServerDeps> {
  const region = env.AWS_REGION;
  // Names are read on use: a function may reach only what its declaration grants, and fails naming the variable if not.
  const table: Table = {
    doc: createDocumentClient({ region, endpoint: env.DYNAMODB_ENDPOINT }),
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
  const pseudonymSecret = createSecretSource({
    region,
    secret: env.PSEUDONYM_SECRET,
    secretArn: env.PSEUDONYM_SECRET_ARN,
  });
  // The secret is fetched on first use, so routes that never need it (health) never call Secrets Manager.
  const pageTokens = createPageTokens(pseudonymSecret);
  return {
    datasets: createDatasetRepository(table),
    audit: createAuditLog(table),
    directory: createDirectory(table),
    organisation: createOrganisationStore(table),
    identity: createIdentityAdmin({
      region,
      endpoint: env.COGNITO_ENDPOINT || undefined,
      userPoolId: () => requireResource(env, ENV.USER_POOL_ID),
    }),
    policies: createPolicyRepository(table),
    uploads: createUploadRepository(table),
    objects,
    pipeline: createPipelineStarter({ region, stateMachineArn: env.STATE_MACHINE_ARN, endpoint: env.SFN_ENDPOINT }),
    runSlots: createRunSlotStore(table),
    pageTokens,
    pseudonymizer: createPseudonymizer(pseudonymSecret),
    pseudonymSecret,
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
    clock: { now: () => new Date().toISOString() },
    ids: { newId: () => randomUUID() },
  };
}
