import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamoIdempotency } from '#functions/adapters/dynamo/idempotency-store.ts';
import { intakeCommitGuard, WorkInProgressError } from '#functions/lib/idempotency.ts';
import { sendInvitationOnce } from '#functions/invitations/send-invitation.ts';
import { createTeamSharesOnce } from '#functions/shares/team-shares.ts';
import { commitQuietStudies, commitStudy } from '#shared/domain/intake/commit-study.ts';
import type { IntakeDeps, IntakeSource, IntakeStore, IntakeStudyRecord } from '#shared/domain/intake/ports.ts';
import { receiveInstance } from '#shared/domain/intake/receive-instance.ts';
import { SingleInvitationSchema } from '#shared/schemas/api/invitations.ts';
import { memoryIdempotency } from '#functions/adapters/memory/idempotency.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { caller, fakeInvitationWorld, ports } from '#tests/unit/domain/fakes.ts';
import { shareWorld } from '#tests/unit/domain/shares/fixtures.ts';

beforeAll(() => {
  process.env.IWS_SILENT_LOGS = '1';
});

const instance = new Uint8Array(readFileSync(resolve(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom/00001.dcm')));
const integration = {
  id: 'int-1',
  hospitalId: 'h1',
  teamId: 't1',
  teamName: 'Neuro',
  name: 'PACS',
  kind: 'DICOMWEB_CLIENT',
  quietSeconds: 60,
  status: 'ACTIVE',
};
const source = { via: 'STOW_RS', integration } as unknown as IntakeSource;

/** The intake store's contract in memory (the DynamoDB adapter's conditions: a closed study takes no file). */
function memoryIntake(): IntakeStore & { items: Map<string, IntakeStudyRecord> } {
  const items = new Map<string, IntakeStudyRecord>();
  const k = (h: string, i: string, s: string) => `${h}/${i}/${s}`;
  return {
    items,
    get: async (h, i, s) => (items.has(k(h, i, s)) ? { ...items.get(k(h, i, s))! } : undefined),
    async create(record) {
      const key = k(record.hospitalId, record.integrationId, record.studyInstanceUID);
      if (items.has(key)) return false;
      items.set(key, { ...record });
      return true;
    },
    async reserveFile(h, i, s, bytes, at, commitAfter) {
      const item = items.get(k(h, i, s));
      if (!item || item.committingAt) return undefined;
      Object.assign(item, {
        fileCount: item.fileCount + 1,
        receivedBytes: item.receivedBytes + bytes,
        lastReceivedAt: at,
        commitAfter,
      });
      return { fileIndex: item.fileCount - 1, datasetId: item.datasetId };
    },
    async closeForCommit(h, i, s, at) {
      const item = items.get(k(h, i, s));
      if (!item) return undefined;
      item.committingAt ??= at;
      return { ...item };
    },
    async remove(h, i, s) {
      items.delete(k(h, i, s));
    },
    receivingBytes: async (h) =>
      [...items.values()].filter((item) => item.hospitalId === h).reduce((n, item) => n + item.receivedBytes, 0),
    due: async () => [...items.values()].map((item) => ({ ...item })),
  };
}

/** Makes the next call of `method` fail as a crash would: after what came before it was written, before it. */
function crashOnce<T extends object>(target: T, method: keyof T): void {
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  let crashed = false;
  (target as Record<keyof T, unknown>)[method] = async (...args: unknown[]) => {
    if (!crashed) {
      crashed = true;
      throw Object.assign(new Error('the function was stopped'), { name: 'Crash' });
    }
    return original.apply(target, args);
  };
}

/** A received study (one instance) of integration int-1, and the ports of its commit. */
async function receivedStudy() {
  const p = ports();
  const intake = memoryIntake();
  // Step Functions: an execution's name is unique; StartExecution of a name already used starts nothing new (the
  // adapter, functions/adapters/sfn/pipeline-starter.ts, takes ExecutionAlreadyExists as started).
  const executions: string[] = [];
  const pipeline = {
    async start(input: { datasetId: string; runId: string }) {
      const name = `${input.datasetId}-${input.runId}`;
      if (!executions.includes(name)) executions.push(name);
    },
  };
  const deps = {
    ...p,
    intake,
    pipeline,
    integrations: { touch: async () => undefined },
    pseudonymSecret: async () => 'k'.repeat(32),
  } as unknown as IntakeDeps & { directory: typeof p.directory };
  const received = await receiveInstance(instance, source, deps);
  expect(received).toMatchObject({ stored: true });
  const datasetId = (received as { datasetId: string }).datasetId;
  const { idempotency, layers } = memoryIdempotency();
  const guard = intakeCommitGuard(idempotency);
  const storageOf = () =>
    p.org.store.getHospital('h1').then((h) => (h as { storageUsedBytes?: number } | undefined)?.storageUsedBytes);
  return { p, deps, intake, executions, datasetId, guard, layers, storageOf };
}

describe('the intake commit is one unit a retry finishes (docs/dicom-intake.md#commit)', () => {
  it('a crash between starting the pipeline and deleting the intake item: the next sweep finishes, the run starts once', async () => {
    // Prepare
    const w = await receivedStudy();
    crashOnce(w.intake, 'remove');

    // Act: the sweep is stopped after the pipeline started, before the item went; the next sweep runs.
    await expect(commitQuietStudies(w.deps, w.guard)).rejects.toMatchObject({ name: 'Crash' });
    const cutShort = { items: w.intake.items.size, executions: [...w.executions] };
    const retried = await commitQuietStudies(w.deps, w.guard);

    // Assess
    expect(cutShort).toEqual({ items: 1, executions: [expect.stringContaining(w.datasetId)] });
    expect(retried).toEqual({ committed: 1, waiting: 0 });
    expect(w.executions).toEqual(cutShort.executions);
    expect(w.intake.items.size).toBe(0);
    const dataset = await w.p.datasets.get('h1', w.datasetId);
    expect(dataset).toMatchObject({ status: 'UPLOADING', fileCount: 1 });
    expect(w.executions).toEqual([`${w.datasetId}-${dataset!.lastRunId}`]);
    expect(w.p.audit.events.filter((e) => e.action === 'DICOM_STUDY_COMMITTED').length).toBeGreaterThanOrEqual(1);
  });

  it('a crash between recording the run and starting it (the dataset left UPLOADING): the retry starts it once, counts the bytes once', async () => {
    // Prepare
    const w = await receivedStudy();
    crashOnce(w.deps.pipeline, 'start');

    // Act: the explicit commit is stopped before StartExecution; the client calls it again.
    const studyUid = [...w.intake.items.values()][0]!.studyInstanceUID;
    await expect(commitStudy(integration as never, studyUid, w.deps, w.guard)).rejects.toMatchObject({
      name: 'Crash',
    });
    const cutShort = {
      executions: w.executions.length,
      item: [...w.intake.items.values()][0],
      dataset: await w.p.datasets.get('h1', w.datasetId),
    };
    const bytesCounted = await w.storageOf();
    const retried = await commitStudy(integration as never, studyUid, w.deps, w.guard);

    // Assess: before the retry the study was closed (no new instance joins) and still there to be found.
    expect(cutShort.executions).toBe(0);
    expect(cutShort.item).toMatchObject({ committingAt: expect.any(String) });
    expect(cutShort.dataset).toMatchObject({ status: 'UPLOADING', lastRunId: expect.any(String) });
    expect(retried).toEqual({ datasetId: w.datasetId });
    expect(w.executions).toEqual([`${w.datasetId}-${cutShort.dataset!.lastRunId}`]);
    expect(w.intake.items.size).toBe(0);
    expect(await w.storageOf()).toBe(bytesCounted);
    // A commit of the same study now answers 404, as for any study not being received.
    await expect(commitStudy(integration as never, studyUid, w.deps, w.guard)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('an instance that arrives while a commit is cut short is not stored in the closed study', async () => {
    // Prepare
    const w = await receivedStudy();
    crashOnce(w.deps.pipeline, 'start');
    await expect(commitQuietStudies(w.deps, w.guard)).rejects.toMatchObject({ name: 'Crash' });

    // Act
    const late = await receiveInstance(instance, source, w.deps);

    // Assess: refused (the sender sends it again, into a new dataset once the commit has finished).
    expect(late).toMatchObject({ stored: false });
    expect([...w.intake.items.values()][0]).toMatchObject({ datasetId: w.datasetId, fileCount: 1 });
  });

  it('the explicit commit and the sweep never run one study at once: the second leaves it to the first', async () => {
    // Prepare
    const w = await receivedStudy();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowStart = w.deps.pipeline.start.bind(w.deps.pipeline);
    w.deps.pipeline.start = async (input) => {
      await held;
      return slowStart(input);
    };
    const studyUid = [...w.intake.items.values()][0]!.studyInstanceUID;

    // Act
    const explicit = commitStudy(integration as never, studyUid, w.deps, w.guard);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const sweep = await commitQuietStudies(w.deps, w.guard);
    release();

    // Assess
    expect(sweep).toEqual({ committed: 0, waiting: 0 });
    expect(await explicit).toEqual({ datasetId: w.datasetId });
    expect(w.executions).toHaveLength(1);
  });
});

describe("a deactivated hospital's received studies (docs/dicom-intake.md#deactivation)", () => {
  it('wait, still due, while the hospital is deactivated, and are committed by the first sweep after its restore', async () => {
    // Arrange
    const w = await receivedStudy();
    const hospital = (await w.p.directory.getHospital('h1')) ?? {
      id: 'h1',
      slug: 'h1',
      name: 'H1',
      createdAt: '',
      updatedAt: '',
    };
    await w.p.directory.putHospital({ ...hospital, status: 'DEACTIVATED' });
    // Act
    const deactivated = await commitQuietStudies(w.deps, w.guard);
    const still = { items: w.intake.items.size, executions: [...w.executions] };
    await w.p.directory.putHospital({ ...hospital, status: 'ACTIVE' });
    const restored = await commitQuietStudies(w.deps, w.guard);
    // Assert
    expect(deactivated).toEqual({ committed: 0, waiting: 1 });
    expect(still).toEqual({ items: 1, executions: [] });
    expect(restored).toEqual({ committed: 1, waiting: 0 });
    expect(w.executions).toHaveLength(1);
  });
});

describe('invitations and shares: a retry gets the same answer, without a second e-mail or share', () => {
  const admin = caller('HOSPITAL_ADMIN');
  const single = (over: Record<string, unknown> = {}) =>
    SingleInvitationSchema.parse({ fullName: 'Jordan Lee', email: 'jordan@x.test', role: 'team_member', ...over });

  it('sends one invitation e-mail; the retry returns the invitation made', async () => {
    // Prepare
    const w = fakeInvitationWorld();
    const deps = { ...w.deps, idempotency: memoryIdempotency().idempotency };

    // Act
    const first = await sendInvitationOnce(single(), admin, deps);
    const retry = await sendInvitationOnce(single({ email: ' JORDAN@x.test' }), admin, deps);

    // Assess
    expect(retry).toEqual(JSON.parse(JSON.stringify(first)));
    expect(w.mailbox).toHaveLength(1);
    expect(w.invitations.size).toBe(1);
  });

  it('refuses the same address asked for with other values as the invitation rules do', async () => {
    const w = fakeInvitationWorld();
    const deps = { ...w.deps, idempotency: memoryIdempotency().idempotency };
    await sendInvitationOnce(single(), admin, deps);
    await expect(sendInvitationOnce(single({ fullName: 'Someone Else' }), admin, deps)).rejects.toMatchObject({
      code: 'EMAIL_ALREADY_INVITED',
    });
    expect(w.mailbox).toHaveLength(1);
  });

  it('a failed send keeps no record: the retry sends', async () => {
    const w = fakeInvitationWorld();
    const deps = { ...w.deps, idempotency: memoryIdempotency().idempotency };
    crashOnce(w.deps.invitationDirectory, 'findUserByEmail');
    await expect(sendInvitationOnce(single(), admin, deps)).rejects.toMatchObject({ name: 'Crash' });
    await sendInvitationOnce(single(), admin, deps);
    expect(w.mailbox).toHaveLength(1);
  });

  it('creates a team share once; the retry returns the shares made', async () => {
    // Prepare
    const w = shareWorld();
    const deps = { ...w.deps, idempotency: memoryIdempotency().idempotency };
    const shareCount = async () => (await w.deps.shares.listTeamSharesOfDataset('h1', 'ds1')).length;

    // Act
    const first = await createTeamSharesOnce('ds1', { teamId: 't2', permissions: ['view'] }, w.member, deps);
    const retry = await createTeamSharesOnce('ds1', { teamId: 't2', permissions: ['view'] }, w.member, deps);

    // Assess
    expect(retry).toEqual(JSON.parse(JSON.stringify(first)));
    expect(await shareCount()).toBe(1);
    expect(w.deps.audit.events.filter((e) => e.action === 'TEAM_SHARE_CREATED')).toHaveLength(1);
    await expect(
      createTeamSharesOnce('ds1', { teamId: 't2', permissions: ['view', 'download'] }, w.member, deps),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('idempotency records in the single table (docs/domain.md#idempotency-records)', () => {
  it("keys a record under the hospital's partition with the table's key and TTL attributes", async () => {
    // Prepare
    const ddb = mockClient(DynamoDBClient);
    ddb.on(PutItemCommand).resolves({});
    ddb.on(UpdateItemCommand).resolves({});
    const idempotency = createDynamoIdempotency(new DynamoDBClient({ region: 'eu-west-1' }), () => 'imaging-test');

    // Act
    const result = await idempotency.once(
      { hospitalId: 'h1', operation: 'intake-commit', key: { datasetId: 'd1' } },
      async () => true,
    );

    // Assess
    expect(result).toBe(true);
    const put = ddb.commandCalls(PutItemCommand)[0]!.args[0].input;
    expect(put.TableName).toBe('imaging-test');
    expect(put.Item!.pk).toEqual({ S: 'H#h1#IDEMPOTENCY' });
    expect(put.Item!.sk!.S).toMatch(/^intake-commit#/);
    expect(put.Item!.sk!.S).not.toContain('d1');
    expect(put.Item!.expiresAtEpoch!.N).toMatch(/^\d+$/);
    expect(put.Item!.status).toEqual({ S: 'INPROGRESS' });
    expect(put.ConditionExpression).toContain('attribute_not_exists(#id)');
    expect(put.ExpressionAttributeNames!['#id']).toBe('pk');
    const update = ddb.commandCalls(UpdateItemCommand)[0]!.args[0].input;
    expect(update.Key).toEqual({ pk: put.Item!.pk, sk: put.Item!.sk });
    expect(update.ExpressionAttributeValues![':status']).toEqual({ S: 'COMPLETED' });
    ddb.restore();
  });

  it('answers a completed record with its result, read back when the store gives no old item (dynalite)', async () => {
    const ddb = mockClient(DynamoDBClient);
    ddb.on(PutItemCommand).rejects(new ConditionalCheckFailedException({ message: 'taken', $metadata: {} }));
    ddb.on(GetItemCommand).resolves({
      Item: marshall({
        pk: 'H#h1#IDEMPOTENCY',
        sk: 'x',
        status: 'COMPLETED',
        expiresAtEpoch: Math.floor(Date.now() / 1000) + 60,
        data: { datasetId: 'd1' },
      }),
    });
    const idempotency = createDynamoIdempotency(new DynamoDBClient({ region: 'eu-west-1' }), () => 'imaging-test');
    let ran = false;
    const result = await idempotency.once(
      { hospitalId: 'h1', operation: 'upload-complete', key: { sessionId: 's1' } },
      async () => {
        ran = true;
        return { datasetId: 'other' };
      },
    );
    expect(result).toEqual({ datasetId: 'd1' });
    expect(ran).toBe(false);
    ddb.restore();
  });

  it('refuses a call whose key is being worked on (TOO_MANY_REQUESTS)', async () => {
    const ddb = mockClient(DynamoDBClient);
    ddb.on(PutItemCommand).rejects(new ConditionalCheckFailedException({ message: 'taken', $metadata: {} }));
    ddb.on(GetItemCommand).resolves({
      Item: marshall({
        pk: 'H#h1#IDEMPOTENCY',
        sk: 'x',
        status: 'INPROGRESS',
        expiresAtEpoch: Math.floor(Date.now() / 1000) + 60,
        in_progress_expiration: Date.now() + 60_000,
      }),
    });
    const idempotency = createDynamoIdempotency(new DynamoDBClient({ region: 'eu-west-1' }), () => 'imaging-test');
    await expect(
      idempotency.once({ hospitalId: 'h1', operation: 'intake-commit', key: { datasetId: 'd1' } }, async () => true),
    ).rejects.toBeInstanceOf(WorkInProgressError);
    ddb.restore();
  });
});
