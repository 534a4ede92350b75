/**
 * In-process server harness for integration tests: the twin's DynamoDB stand-in (dynalite in memory, behind the
 * front end that adds transactions) with the table from TABLE_KEYS, the real
 * DynamoDB adapters, an in-memory object store and a recording pipeline starter; demo tenants seeded through
 * infra/local/seed/seed.ts; requests go through the real domain handlers (middy stack, role gate, error mapper)
 * with API Gateway proxy events built as the Cognito authorizer fills them.
 */
import '#infra/local/promise-with-resolvers.ts';
import { listenDynamo } from '#infra/local/dynamo.ts';
import { startStandIns } from '#infra/local/stand-ins.ts';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { matchRoute, type ApiDomain } from '#shared/definitions/api/routes.ts';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  substituteDefinition,
  taskArnVariable,
} from '#shared/definitions/state-machine.ts';
import type { PipelineInput } from '#shared/schemas/workflow.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { DEMO_USERS, type DemoUser } from '#infra/local/seed/demo-data.ts';
import { archiveParts, packArchive } from '#tests/helpers/study-archive.ts';
import { createMemoryObjectStore } from '#functions/adapters/memory/object-store.ts';
import { createMemoryIdentityProviders } from '#functions/adapters/memory/sso-store.ts';
import { createSamlMetadataReader } from '#functions/adapters/saml/metadata-reader.ts';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { createDocumentClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { describeTable } from '#functions/adapters/dynamo/health.ts';
import { createAuditLog } from '#functions/adapters/dynamo/audit-log.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { createDirectory } from '#functions/adapters/dynamo/directory.ts';
import { createOrganisationStore } from '#functions/adapters/dynamo/organisation.ts';
import {
  createInvitationDirectory,
  createInvitationRepository,
} from '#functions/adapters/dynamo/invitations-repository.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import { createPolicyRepository } from '#functions/adapters/dynamo/policies-repository.ts';
import { createUploadRepository } from '#functions/adapters/dynamo/uploads-repository.ts';
import { createSettingsStore } from '#functions/adapters/dynamo/settings-store.ts';
import { seedDemoTenants } from '#infra/local/seed/seed.ts';
import { setDeps, type ServerDeps } from '#functions/lib/deps.ts';
import { createMemoryDigestSigner, createMemoryDigestStore } from '#functions/adapters/memory/audit-digests.ts';
import { createJobStore } from '#functions/adapters/dynamo/jobs-store.ts';
import { JOB_KINDS } from '#functions/jobs/job-kinds.ts';
import { JOB_MAX_CHUNK_FAILURES, runJob } from '#shared/domain/jobs/runner.ts';
import type { JobRef } from '#shared/domain/jobs/ports.ts';
import { readEnv, resetEnvCache } from '#functions/lib/env.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';
import { assertInsideContract } from '#tests/helpers/openapi-contract.ts';

export const TABLE = 'imaging-test';

/** Runs the real ASL with every Task state mapped to its handler file, as the local twin and the cloud do. */
export async function runPipeline(input: PipelineInput): Promise<{ ok: boolean; error?: string }> {
  const { StateMachine } = await import('aws-local-stepfunctions');
  const substitutions = Object.fromEntries(
    ALL_PIPELINE_TASKS.map((t) => [
      taskArnVariable(t.state),
      `arn:aws:lambda:us-east-1:000000000000:function:${t.state}`,
    ]),
  );
  const handlers = Object.fromEntries(
    await Promise.all(
      ALL_PIPELINE_TASKS.map(async (t) => {
        const module = (await import(/* @vite-ignore */ pathToFileURL(join(process.cwd(), t.entry)).href)) as {
          handler: (i: PipelineInput) => Promise<PipelineInput>;
        };
        return [t.state, (i: unknown) => module.handler(i as PipelineInput)];
      }),
    ),
  );
  const machine = new StateMachine(substituteDefinition(buildPipelineDefinition(), substitutions) as never, {
    validationOptions: { checkArn: true },
  });
  const execution = machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: handlers as never,
      retryIntervalOverrides: Object.fromEntries(ALL_PIPELINE_TASKS.map((t) => [t.state, 0])),
    },
  });
  try {
    await execution.result;
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).name };
  }
}

export type Harness = {
  deps: ServerDeps;
  /** What the harness's mail stand-in received, newest last. */
  mailbox: MailMessage[];
  table: Table;
  objects: ReturnType<typeof createMemoryObjectStore>;
  started: { hospitalId: string; datasetId: string; runId: string }[];
  /** Identity-provider calls the organisation routes made ("disable <sub>", "group <sub> A->B"...). */
  identityCalls: string[];
  /** Waits until every job handed to the harness's worker has stopped (docs/jobs.md). */
  settleJobs(): Promise<void>;
  userId(email: string): string;
  user(email: string): DemoUser;
  call(
    method: string,
    path: string,
    options?: {
      as?: string;
      body?: unknown;
      query?: Record<string, string>;
      claims?: Record<string, string>;
      /** Headers beside the content type (a SCIM route's bearer token). */
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
};

// Every API domain of the route table, so a new domain fails to compile here until the harness serves it.
const HANDLERS: Record<
  ApiDomain,
  () => Promise<{
    handler: (
      e: APIGatewayProxyEvent,
      c: Context,
    ) => Promise<{ statusCode: number; body: string; headers?: Record<string, unknown> }>;
  }>
> = {
  health: () => import('#functions/health/handler.ts'),
  auth: () => import('#functions/auth/handler.ts'),
  datasets: () => import('#functions/datasets/handler.ts'),
  uploads: () => import('#functions/uploads/handler.ts'),
  hospitals: () => import('#functions/hospitals/handler.ts'),
  settings: () => import('#functions/settings/handler.ts'),
  departments: () => import('#functions/departments/handler.ts'),
  teams: () => import('#functions/teams/handler.ts'),
  users: () => import('#functions/users/handler.ts'),
  audit: () => import('#functions/audit/handler.ts'),
  reports: () => import('#functions/reports/handler.ts'),
  notifications: () => import('#functions/notifications/handler.ts'),
  invitations: () => import('#functions/invitations/handler.ts'),
  shares: () => import('#functions/shares/handler.ts'),
  'patient-access': () => import('#functions/patient-access/handler.ts'),
  dashboards: () => import('#functions/dashboards/handler.ts'),
  usage: () => import('#functions/usage/handler.ts'),
  integrations: () => import('#functions/integrations/handler.ts'),
  dicomweb: () => import('#functions/dicomweb/handler.ts'),
  jobs: () => import('#functions/jobs/handler.ts'),
  scim: () => import('#functions/scim/handler.ts'),
};

/** The harness's user pool: tokens of its site client carry these (resolveCaller checks them). */
export const HARNESS_POOL = {
  userPoolId: 'us-east-1_Harness',
  clientId: 'harness-site-client',
  issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Harness',
} as const;

/** The pseudonym key of the harness's deps (the CLI parity test hands the same one to `iws process`). */
export const HARNESS_PSEUDONYM_SECRET = 'test-secret-for-harness';

export const subOf = (email: string) => `sub-${email.replace(/[^a-z0-9]/gi, '-')}`;

/** Claims as API Gateway hands them to a Lambda: strings, arrays rendered "[A B]". */
export function claimsFor(user: DemoUser): Record<string, string> {
  return {
    sub: subOf(user.email),
    email: user.email,
    'custom:hospitalId': user.hospitalId,
    ...(user.teamId ? { 'custom:teamId': user.teamId } : {}),
    'cognito:groups': `[${user.role}]`,
    token_use: 'id',
    aud: HARNESS_POOL.clientId,
    iss: HARNESS_POOL.issuer,
  };
}

export async function startHarness(options: { dynamoInOwnProcess?: boolean } = {}): Promise<Harness> {
  // In its own process, as the twin runs it (docs/local-twin.md#stand-ins): for benches that load the machine.
  const dynamo = options.dynamoInOwnProcess
    ? await startStandIns({ service: 'dynamodb', dataDir: '' }).then((s) => ({ endpoint: s.endpoint, close: s.close }))
    : await listenDynamo();
  const { endpoint } = dynamo;
  const env = {
    TABLE_NAME: TABLE,
    UPLOADS_BUCKET: 'uploads',
    STUDIES_BUCKET: 'studies',
    ASSETS_BUCKET: 'assets',
    DYNAMODB_ENDPOINT: endpoint,
    STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:test',
    AWS_REGION: 'us-east-1',
    USER_POOL_ID: HARNESS_POOL.userPoolId,
    USER_POOL_CLIENT_ID: HARNESS_POOL.clientId,
    // A local twin started earlier in the process publishes its pool under its own endpoint; this pool is a cloud one.
    COGNITO_ENDPOINT: '',
    SITE_ORIGIN: 'http://localhost:3000',
    IWS_SILENT_LOGS: '1',
  };
  Object.assign(process.env, env);
  resetEnvCache();
  const table: Table = { doc: createDocumentClient({ region: 'us-east-1', endpoint }), tableName: TABLE };
  await table.doc.send(new CreateTableCommand(createTableInput(TABLE)));
  const objects = createMemoryObjectStore();
  const started: Harness['started'] = [];
  const identityCalls: string[] = [];
  const mailbox: MailMessage[] = [];
  // The job worker in process: each job handed over runs with the harness's deps after the request has answered,
  // retried as Lambda retries an asynchronous invocation (docs/jobs.md).
  const jobRuns = new Set<Promise<void>>();
  const runInBackground = (ref: JobRef) => {
    const run = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      for (let attempt = 1; ; attempt++) {
        try {
          await runJob(ref, JOB_KINDS, deps);
          return;
        } catch (error) {
          if (attempt >= JOB_MAX_CHUNK_FAILURES) throw error;
        }
      }
    })();
    jobRuns.add(run);
    void run.catch(() => undefined).finally(() => jobRuns.delete(run));
  };
  // No Secrets Manager in process: the harness holds the key itself, and the ports built on it use it.
  const real = await createAwsDeps(readEnv(env), { pseudonymSecret: async () => HARNESS_PSEUDONYM_SECRET });
  // Repositories on the harness's own client, so tests can watch what DynamoDB returns.
  const deps: ServerDeps = {
    ...real,
    datasets: createDatasetRepository(table),
    audit: createAuditLog(table),
    // The digest bucket and its signing key in memory (the S3 and KMS adapters have tests of their own).
    digests: { store: createMemoryDigestStore(), signer: createMemoryDigestSigner() },
    directory: createDirectory(table),
    organisation: createOrganisationStore(table),
    jobs: createJobStore(table),
    jobStarter: { start: async (ref) => runInBackground(ref) },
    // The harness's pool is a cloud one no test reaches: identity calls are recorded instead.
    identity: {
      changeGroup: async (username, from, to) => void identityCalls.push(`group ${username} ${from}->${to}`),
      disable: async (username) => void identityCalls.push(`disable ${username}`),
      enable: async (username) => void identityCalls.push(`enable ${username}`),
      signOut: async (username) => void identityCalls.push(`signOut ${username}`),
      resetMfa: async (username) => void identityCalls.push(`resetMfa ${username}`),
      // No user pool in process: the identity's sub is derived from the e-mail, as the demo users' are.
      createMember: async (input) => subOf(input.email),
    },
    policies: createPolicyRepository(table),
    settings: createSettingsStore(table),
    uploads: createUploadRepository(table),
    objects,
    // Avatars are signed for the in-memory store like its other URLs.
    avatars: {
      presignPut: async (key, contentType, size, ttl) =>
        `https://memory.invalid/assets/${key}?X-Amz-Expires=${ttl}&type=${encodeURIComponent(contentType)}&size=${size}`,
      presignGet: (key, ttl) => objects.presignGet('assets', key, ttl),
    },
    pipeline: {
      start: async (input) => {
        started.push(input);
      },
    },
    health: {
      failing: async () =>
        await describeTable(table).then(
          () => [],
          () => ['table'],
        ),
    },
    invitations: createInvitationRepository(table),
    invitationDirectory: createInvitationDirectory(table),
    mailer: {
      send: async (message) => {
        mailbox.push(message);
      },
    },
    siteOrigin: env.SITE_ORIGIN,
    // No user pool in process: an integration's app client is made up from its name.
    machineClients: {
      create: async (name) => ({ clientId: `client-${name}`, clientSecret: `secret-${name}` }),
      remove: async () => undefined,
      suspend: async (clientId) => void identityCalls.push(`suspend ${clientId}`),
      resume: async (clientId, scopes) => void identityCalls.push(`resume ${clientId} ${scopes.join(' ')}`),
    },
    // No user pool in process: the hospitals' OIDC providers are kept in memory; a test answers the discovery reads.
    identityProviders: createMemoryIdentityProviders(),
    fetchJson: async () => {
      throw new Error('unreachable');
    },
    // SAML metadata is read by the real reader (samlify); a metadata URL is unreachable unless a test answers it.
    samlMetadata: createSamlMetadataReader(async () => {
      throw new Error('unreachable');
    }),
    hostedLogin: {
      authorizeUrl: 'https://auth.harness.invalid/oauth2/authorize',
      clientId: HARNESS_POOL.clientId,
      redirectUri: `${env.SITE_ORIGIN}/`,
    },
  };
  setDeps(deps);
  await seedDemoTenants({ ensureIdentity: async (u) => subOf(u.email), password: 'unused', table });

  const user = (email: string) => {
    const found = DEMO_USERS.find((u) => u.email === email);
    if (!found) throw new Error(`No demo user ${email}`);
    return found;
  };
  return {
    deps,
    mailbox,
    table,
    objects,
    started,
    identityCalls,
    async settleJobs() {
      while (jobRuns.size > 0) await Promise.allSettled([...jobRuns]);
    },
    user,
    userId: subOf,
    async call(method, path, options = {}) {
      const matched = matchRoute(method, path);
      if (!matched) throw new Error(`No route for ${method} ${path}`);
      const claims = options.claims ?? (options.as ? claimsFor(user(options.as)) : undefined);
      const event = {
        httpMethod: method,
        path,
        resource: matched.route.path,
        pathParameters: matched.pathParameters,
        queryStringParameters: options.query ?? null,
        headers: { 'content-type': 'application/json', ...options.headers },
        multiValueHeaders: {},
        multiValueQueryStringParameters: null,
        stageVariables: null,
        isBase64Encoded: false,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        requestContext: { ...(claims ? { authorizer: { claims } } : {}) },
      } as unknown as APIGatewayProxyEvent;
      const { handler } = await HANDLERS[matched.route.domain]!();
      const result = await handler(event, {} as Context);
      // Every answer a test receives is held against the OpenAPI document (docs/api-contract.md).
      assertInsideContract(method, matched.route, {
        status: result.statusCode,
        contentType: result.headers?.['Content-Type'] as string | undefined,
        body: result.body,
      });
      // A CSV export answers text; everything else JSON.
      const json = String(result.headers?.['Content-Type'] ?? 'application/json').includes('json');
      return {
        status: result.statusCode,
        body: result.body ? (json ? JSON.parse(result.body) : result.body) : undefined,
      };
    },
    async stop() {
      setDeps(undefined);
      table.doc.destroy();
      await dynamo.close();
    },
  };
}

/**
 * Registers the file's beforeAll/afterAll for a pipeline test over the shared DICOM data: fails first when the data is
 * missing, then starts one harness, stopped after the file. The returned object is filled in by beforeAll.
 */
export function useHarnessOverSharedData(): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    requireSharedData();
    Object.assign(harness, await startHarness());
  });
  afterAll(async () => {
    await harness.stop?.();
  });
  return harness;
}

/** Creates a research dataset (fixed patient context, consent given) as `as`, expecting 201; returns its id. */
export async function createResearchDataset(h: Harness, as: string, description: string): Promise<string> {
  const created = await h.call('POST', '/api/datasets', {
    as,
    body: {
      mrn: 'MRN-77',
      studyType: 'RESEARCH',
      studyDescription: description,
      clinicalIndication: 'Study',
      orderingPhysician: 'Dr. C',
      department: 'Radiology',
      patientConsent: true,
      hipaaDisclosure: true,
    },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/**
 * Packs the files into the session's archive and stores its parts straight in the memory store (the part URLs are
 * covered in datasets-pipeline.test.ts), then completes the session through the API; returns the pipeline run the
 * completion started.
 */
export async function uploadDirect(
  h: Harness,
  as: string,
  datasetId: string,
  files: { path: string; bytes: Uint8Array }[],
): Promise<PipelineInput> {
  const hospitalId = h.user(as).hospitalId;
  const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
    as,
    body: { files: files.map((f) => ({ fileKey: fileKeyOf(f.path), sizeBytes: f.bytes.byteLength })) },
  });
  expect(session.status).toBe(201);
  const record = (await h.deps.uploads.getSession(hospitalId, session.body.sessionId))!;
  const parts = archiveParts(packArchive(files.map((f) => f.bytes)), record.partBytes);
  parts.forEach((bytes, i) => h.objects.uploadPart(record.multipartUploadId, i + 1, bytes));
  expect((await h.call('POST', `/api/uploads/${session.body.sessionId}/complete`, { as })).status).toBe(200);
  return h.started.filter((s) => s.datasetId === datasetId).at(-1)!;
}
