/**
 * The share store's cloud paths (docs/domain.md#team-shares): a team share is one transaction of three items with the
 * grant conditional; a lost condition is a ConflictError; a revoke deletes the three; a patient share update is
 * conditional on its version and moves its by-expiry index entry with its status; the expired ACTIVE shares are a
 * Count query walked over its pages. Checked here against the SDK's own exception classes; the twin runs the same
 * transaction against its store.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { createShareStore } from '#functions/adapters/dynamo/shares-store.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { PatientShareRecord, TeamShareRecord } from '#shared/domain/shares/ports.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

const table = () => ({ doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-test' });
const share: TeamShareRecord = {
  id: 's1',
  hospitalId: 'h1',
  datasetId: 'd1',
  sourceTeamId: 't1',
  recipientType: 'TEAM',
  recipientId: 't2',
  recipientName: 'Stroke',
  permissions: ['view'],
  createdByUserId: 'u1',
  createdByName: 'Pat Lead',
  createdAt: '2026-02-01T10:00:00.000Z',
};

describe('share store in the cloud', () => {
  it('writes a team share as one transaction with the grant first and conditional', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});
    // Act
    await createShareStore(table()).putTeamShare(share);
    // Assess
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(3);
    expect(items[0]!.Put).toMatchObject({
      Item: keys.shareGrant('h1', { type: 'TEAM', id: 't2' }, 'd1'),
      ConditionExpression: 'attribute_not_exists(#pk)',
    });
    expect(items.map((i) => i.Put!.Item!.sk)).toEqual([
      'SHARETO#T#t2#DS#d1',
      'TSHARE#d1#s1',
      'TSHAREFROM#t1#2026-02-01T10:00:00.000Z#s1',
    ]);
  });

  it('answers a second share to the same recipient with ConflictError', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    await expect(createShareStore(table()).putTeamShare(share)).rejects.toBeInstanceOf(ConflictError);
  });

  it('revokes by deleting the grant, the share and the listing together', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await createShareStore(table()).deleteTeamShare(share);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => i.Delete!.Key!.sk)).toEqual([
      'SHARETO#T#t2#DS#d1',
      'TSHARE#d1#s1',
      'TSHAREFROM#t1#2026-02-01T10:00:00.000Z#s1',
    ]);
  });

  it('updates a patient share only at the expected version, removing cleared fields', async () => {
    // Prepare
    ddb
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    const patient = { id: 'p1', hospitalId: 'h1', datasetId: 'd1', version: 4 } as PatientShareRecord;
    // Act
    const failure = await createShareStore(table())
      .updatePatientShare(patient, { opens: 1, codeHash: undefined }, 4)
      .catch((e: unknown) => e);
    // Assess
    expect(failure).toBeInstanceOf(ConflictError);
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(#pk) AND #version = :expectedVersion');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':expectedVersion': 4 });
    expect(input.UpdateExpression).toMatch(/REMOVE/);
  });

  it("drops a patient share's by-expiry index entry as it leaves ACTIVE, and writes it when it becomes ACTIVE", async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({ Attributes: {} });
    const patient = {
      id: 'p1',
      hospitalId: 'h1',
      datasetId: 'd1',
      status: 'ACTIVE',
      expiresAt: '2026-03-01T00:00:00.000Z',
      version: 4,
    } as PatientShareRecord;
    const store = createShareStore(table());
    // Act
    await store.updatePatientShare(patient, { status: 'REVOKED' }, 4);
    await store.updatePatientShare(
      { ...patient, status: 'PENDING_APPROVAL' },
      { status: 'ACTIVE', expiresAt: '2026-04-01T00:00:00.000Z' },
      4,
    );
    await store.updatePatientShare(patient, { opens: 2 }, 4);
    // Assess: the index attributes by name, removed, then set to the hospital's partition and the new expiry.
    const [revoked, approved, opened] = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    const names = (input: typeof revoked) => input!.ExpressionAttributeNames ?? {};
    const removed = /REMOVE (.*)$/.exec(revoked!.UpdateExpression!)![1]!.split(', ');
    expect(removed.map((ref) => names(revoked)[ref])).toEqual(['gsi2pk', 'gsi2sk']);
    const set = (input: typeof approved) =>
      Object.fromEntries(
        Object.entries(names(input)).map(([ref, name]) => [
          name,
          input!.ExpressionAttributeValues?.[`:${ref.slice(1)}`],
        ]),
      );
    expect(set(approved)).toMatchObject({ gsi2pk: 'H#h1#PSHAREACTIVE', gsi2sk: '2026-04-01T00:00:00.000Z#p1' });
    expect(Object.values(names(opened))).not.toContain('gsi2pk');
  });

  it('counts the ACTIVE shares past their expiry with Select COUNT over every page of the index partition', async () => {
    // Prepare
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Count: 3, LastEvaluatedKey: { gsi2pk: 'x', gsi2sk: 'y', pk: 'p', sk: 's' } })
      .resolves({ Count: 2 });
    // Act
    const count = await createShareStore(table()).countActivePastExpiry('h1', '2026-03-01T00:00:00.000Z');
    // Assess
    expect(count).toBe(5);
    const [first, second] = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(first).toMatchObject({
      IndexName: 'gsi2',
      Select: 'COUNT',
      ExpressionAttributeValues: { ':pk': 'H#h1#PSHAREACTIVE', ':bound': '2026-03-01T00:00:00.000Z$' },
    });
    expect(second!.ExclusiveStartKey).toEqual({ gsi2pk: 'x', gsi2sk: 'y', pk: 'p', sk: 's' });
  });
});
