/**
 * The share store's cloud paths (docs/domain.md#team-shares): a team share is one transaction of three items with the
 * grant conditional; a lost condition is a ConflictError; a revoke deletes the three; a patient share update is
 * conditional on its version. Checked here against the SDK's own exception classes; the twin runs the same
 * transaction against its store.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
});
