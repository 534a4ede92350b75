import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  apiFunctionDeclaration,
  pipelineFunctionDeclarations,
  type FunctionDeclaration,
} from '#infra/function-declarations.ts';
import {
  createLocalFunction,
  LOCAL_MAIL_FROM,
  localFunctionSpec,
  localPseudonymSecretArn,
  LOCAL_PSEUDONYM_SECRET_NAME,
  type LocalFunction,
  type TwinResources,
} from '#infra/local/function-runtime.ts';
import { DEFAULT_SHARE_LIMITS } from '#shared/domain/shares/ports.ts';
import { ENV } from '#shared/definitions/env.ts';
import { functionBundles } from '#infra/local/bundle.ts';
import { handleSecretsManager } from '#infra/local/secrets-manager.ts';

const FIXTURES = 'tests/integration/fixtures/twin-functions';

// Endpoints nobody listens on: a call the grants allow fails on the network, one they refuse never leaves the thread.
const resources: TwinResources = {
  region: 'us-east-1',
  tableName: 'imaging-local',
  buckets: { uploads: 'imaging-local-uploads', studies: 'imaging-local-studies', assets: 'imaging-local-assets' },
  stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:imaging-local-pipeline',
  siteOrigin: 'http://127.0.0.1:1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  endpoints: {
    dynamodb: 'http://127.0.0.1:1/_aws/dynamodb',
    s3: 'http://127.0.0.1:1/_aws/s3',
    s3Public: 'http://127.0.0.1:1/_aws/s3',
    sfn: 'http://127.0.0.1:1/_aws/sfn',
    cognito: 'http://127.0.0.1:1/_aws/cognito',
    lambda: 'http://127.0.0.1:1/_aws/lambda',
    ses: 'http://127.0.0.1:1/_aws/ses',
    sns: 'http://127.0.0.1:1/_aws/sns',
    secretsManager: 'http://127.0.0.1:1/_aws/secretsmanager',
  },
  passThrough: { IWS_SILENT_LOGS: '1' },
};

const started: LocalFunction[] = [];
afterAll(async () => {
  await Promise.all(started.map((fn) => fn.close()));
});

/** A real function's declaration (grants, env, memory, timeout) running a fixture entry instead of its own. */
function asFixture(
  declaration: FunctionDeclaration,
  entry: string,
  changes: Partial<FunctionDeclaration> = {},
  bundle?: string,
) {
  const fn = createLocalFunction(
    localFunctionSpec({ ...declaration, entry: `${FIXTURES}/${entry}`, ...changes }, resources),
    bundle ? { bundle } : {},
  );
  started.push(fn);
  return fn;
}

const classifySeries = pipelineFunctionDeclarations().ClassifySeries!;

describe('functions in the local twin', () => {
  it('run with only the environment their declaration gives and their memory size as the heap cap', async () => {
    // Prepare
    const fn = asFixture(classifySeries, 'report-runtime.ts');

    // Act
    const seen = (await fn.invoke({})) as {
      env: Record<string, string>;
      resourceLimits: { maxOldGenerationSizeMb: number };
      memoryLimitInMB: string;
    };

    // Assess: the studies bucket it may read, not the buckets, secret or pipeline it may not; nothing of the host.
    expect(seen.env[ENV.STUDIES_BUCKET]).toBe(resources.buckets.studies);
    expect(seen.env[ENV.TABLE_NAME]).toBe(resources.tableName);
    for (const absent of [
      ENV.UPLOADS_BUCKET,
      ENV.ASSETS_BUCKET,
      ENV.PSEUDONYM_SECRET_ARN,
      ENV.SECRETS_MANAGER_ENDPOINT,
      ENV.STATE_MACHINE_ARN,
      ENV.SFN_ENDPOINT,
      'HOME',
      'PATH',
    ]) {
      expect(seen.env[absent], absent).toBeUndefined();
    }
    expect(seen.resourceLimits.maxOldGenerationSizeMb).toBe(classifySeries.memoryMb);
    expect(seen.memoryLimitInMB).toBe(String(classifySeries.memoryMb));
  }, 30_000);

  it("send mail and texts to the twin's SES and SNS, and take the share lock the twin passes through", async () => {
    // Prepare: patient access sends both; one function as the browser tests start it, one as `npm start` does.
    const patientAccess = apiFunctionDeclaration('patient-access');
    const plain = asFixture(patientAccess, 'report-share-limits.ts');
    const shortened = createLocalFunction(
      localFunctionSpec(
        { ...patientAccess, entry: `${FIXTURES}/report-share-limits.ts` },
        { ...resources, passThrough: { ...resources.passThrough, IWS_SHARE_LOCK_SECONDS: '3' } },
      ),
    );
    started.push(shortened);

    // Act
    const seen = (await plain.invoke({})) as Record<string, unknown>;
    const locked = (await shortened.invoke({})) as Record<string, unknown>;

    // Assess
    expect(seen).toEqual({
      lockSeconds: DEFAULT_SHARE_LIMITS.lockSeconds,
      sesEndpoint: resources.endpoints.ses,
      snsEndpoint: resources.endpoints.sns,
      mailFrom: LOCAL_MAIL_FROM,
    });
    expect(locked.lockSeconds).toBe(3);
  }, 30_000);

  it('refuse a call their grants do not allow with the AccessDenied AWS gives, and let granted calls through', async () => {
    // Prepare: ClassifySeries reads and lists studies; it may not write them, and has no assets bucket at all.
    const classify = asFixture(classifySeries, 'reach-resources.ts');
    // Health may describe the table, never read an item.
    const health = asFixture(apiFunctionDeclaration('health'), 'reach-resources.ts');

    // Act
    const putStudies = await classify.invoke({ call: 'put-studies' });
    const putAssets = await classify.invoke({ call: 'put-assets' });
    const listStudies = await classify.invoke({ call: 'list-studies' });
    const getItem = await health.invoke({ call: 'get-dataset' });
    // Only the audit appender writes the chain; ClassifySeries puts a pending event, never a chained one, and never
    // changes a pending one.
    const putAuditEvent = await classify.invoke({ call: 'put-audit-event' });
    const appendAudit = await classify.invoke({ call: 'append-audit' });
    const updatePending = await classify.invoke({ call: 'update-pending-audit-event' });

    // Assess
    expect(putStudies).toMatchObject({
      ok: false,
      name: 'AccessDenied',
      status: 403,
      message: expect.stringContaining(
        'is not authorized to perform: s3:PutObject on resource: arn:aws:s3:::imaging-local-studies/h1/d1/x.dcm',
      ),
    });
    expect(putAssets).toMatchObject({ ok: false, name: 'MissingResourceError', message: /ASSETS_BUCKET is not set/ });
    // Allowed, so it went to the (absent) endpoint: a network error, not a refusal.
    expect(listStudies).toMatchObject({ ok: false });
    expect((listStudies as { name: string }).name).not.toMatch(/AccessDenied/);
    expect(getItem).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      status: 400,
      message: expect.stringContaining('dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table/'),
    });
    expect(putAuditEvent).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:PutItem'),
    });
    expect(updatePending).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:UpdateItem'),
    });
    // Allowed: the pending event's put went to the (absent) DynamoDB endpoint.
    expect(appendAudit).toMatchObject({ ok: false });
    expect((appendAudit as { name: string }).name).not.toMatch(/AccessDenied/);
  }, 60_000);

  it("read the pseudonym key from the twin's Secrets Manager when granted it, and are refused it otherwise", async () => {
    // Prepare: the stand-in holding the key under the local ARN, as the twin serves it at /_aws/secretsmanager.
    const arn = localPseudonymSecretArn(resources.region);
    const server = createServer(
      (req, res) =>
        void handleSecretsManager(req, res, [
          { arn, name: LOCAL_PSEUDONYM_SECRET_NAME, value: 'k'.repeat(43), createdAt: new Date() },
        ]),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_aws/secretsmanager`;
    const withStandIn = { ...resources, endpoints: { ...resources.endpoints, secretsManager: endpoint } };
    const start = (declaration: FunctionDeclaration) => {
      const fn = createLocalFunction(
        localFunctionSpec({ ...declaration, entry: `${FIXTURES}/reach-resources.ts` }, withStandIn),
      );
      started.push(fn);
      return fn;
    };
    // The audit domain seals its page tokens with the key; health has no grant for it.
    const audit = start(apiFunctionDeclaration('audit'));
    const health = start(apiFunctionDeclaration('health'));

    try {
      // Act
      const granted = await audit.invoke({ call: 'pseudonym-secret' });
      const ungranted = await health.invoke({ call: 'pseudonym-secret' });
      const direct = await health.invoke({ call: 'get-secret', secretId: arn, endpoint });

      // Assess
      expect(granted).toEqual({ ok: true, length: 43 });
      expect(ungranted).toMatchObject({ ok: false, name: 'MissingResourceError', message: /PSEUDONYM_SECRET_ARN/ });
      expect(direct).toMatchObject({
        ok: false,
        name: 'AccessDeniedException',
        message: expect.stringContaining(`secretsmanager:GetSecretValue on resource: ${arn}`),
      });
    } finally {
      server.close();
    }
  }, 60_000);

  it('run from their bundle (as the twin runs its API functions) with the same environment and the same refusals', async () => {
    // Prepare
    const bundles = await functionBundles([`${FIXTURES}/reach-resources.ts`, `${FIXTURES}/report-runtime.ts`]);
    const health = asFixture(
      apiFunctionDeclaration('health'),
      'reach-resources.ts',
      {},
      bundles.get(`${FIXTURES}/reach-resources.ts`),
    );
    const report = asFixture(classifySeries, 'report-runtime.ts', {}, bundles.get(`${FIXTURES}/report-runtime.ts`));

    // Act
    const getItem = await health.invoke({ call: 'get-dataset' });
    const seen = (await report.invoke({})) as { env: Record<string, string> };

    // Assess
    expect(getItem).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table/'),
    });
    expect(seen.env[ENV.STUDIES_BUCKET]).toBe(resources.buckets.studies);
    expect(seen.env.HOME).toBeUndefined();
  }, 60_000);

  it('fail a task that exceeds its memory size as Lambda does (Runtime.OutOfMemory), and run the next call afresh', async () => {
    // Prepare: a real task's declaration, at Lambda's smallest memory size so the test is quick.
    const fn = asFixture(pipelineFunctionDeclarations().CompleteDataset!, 'exhaust-memory.ts', { memoryMb: 128 });

    // Act
    const failure = await fn.invoke({ mode: 'exhaust' }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );

    // Assess: that call failed alone; this process (the twin) is fine and the function takes the next call.
    expect(failure?.name).toBe('Runtime.OutOfMemory');
    expect(failure?.message).toContain('128 MB');
    expect(fn.instances()).toBe(0);
    expect(await fn.invoke({ mode: 'ok' })).toEqual({ ok: true });
  }, 60_000);

  it('stop a call at the declared timeout as Lambda does (Sandbox.Timedout)', async () => {
    // Prepare
    const fn = asFixture(pipelineFunctionDeclarations().CompleteDataset!, 'exhaust-memory.ts', { timeoutSeconds: 1 });

    // Act
    const failure = await fn.invoke({ mode: 'wait' }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );

    // Assess
    expect(failure?.name).toBe('Sandbox.Timedout');
    expect(failure?.message).toContain('Task timed out after 1.00 seconds');
  }, 30_000);
});
