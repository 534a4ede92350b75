/**
 * The audit trail off the request path (docs/domain.md#how-an-event-travels), as only the cloud runs it end to end:
 * a function writes its event as one pending item (with its own update in the same transaction), invokes the
 * appender through the Lambda API only to drain or to keep a verification, and the appender, triggered by the
 * table's stream, chains a hospital's pending events in one transaction. Checked against the SDKs' own clients with
 * aws-sdk-client-mock.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeferredAuditWriter } from '#functions/adapters/lambda/audit-appender.ts';
import { pendingItem } from '#functions/adapters/dynamo/audit-pending.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { handler as appendEvents, hospitalsOfStream } from '#functions/audit/append-events.ts';
import { resetEnvCache } from '#functions/lib/env.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { ConflictError, TransientError } from '#shared/domain/errors.ts';

const lambda = mockClient(LambdaClient);
const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  lambda.reset();
  ddb.reset();
});

const entry: AuditEntry = {
  hospitalId: 'h1',
  datasetId: 'd1',
  action: 'STATUS_CHANGED',
  actorUserId: 'pipeline',
  actorName: 'Pipeline',
  details: { from: 'UPLOADING', to: 'ANONYMIZING' },
};
// The SDK wraps response payloads in a blob adapter; the appender's client only reads its bytes.
const payload = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)) as never;
const sent = (call: number) =>
  JSON.parse(
    new TextDecoder().decode(lambda.commandCalls(InvokeCommand)[call]!.args[0].input.Payload as Uint8Array),
  ) as Record<string, unknown>;
const table = () => ({ doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-dev' });
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('a function recording an audit event', () => {
  const writer = () =>
    createDeferredAuditWriter(
      { region: 'eu-west-1', functionName: 'imaging-dev-audit-appender' },
      table(),
      new LambdaClient({}),
    );

  it('makes the event durable with one put of a pending item and invokes nothing', async () => {
    // Arrange
    ddb.on(PutCommand).resolves({});

    // Act
    await writer().append(entry);

    // Assert
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    const puts = ddb.commandCalls(PutCommand);
    expect(puts).toHaveLength(1);
    const item = puts[0]!.args[0].input.Item!;
    expect(item.pk).toBe(keys.auditPendingPartition('h1'));
    expect(item).toMatchObject({ entity: 'auditPending', action: 'STATUS_CHANGED', hospitalId: 'h1' });
    expect(item.sk).toBe(`${String(item.at)}#${String(item.id)}`);
    expect(puts[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(#pk)');
  });

  it("puts the pending event in one transaction with the caller's update, and tells its false condition apart", async () => {
    // Arrange: the dataset is no longer in the status the update expected (reason 0 of the cancellation).
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    ddb.on(GetCommand).resolves({ Item: { ...keys.dataset('h1', 'd1'), status: 'COMPLETE' } });
    const datasets = createDatasetRepository(table(), writer());

    // Act
    const conflict = await datasets
      .transition('h1', 'd1', ['UPLOADING'], 'ANONYMIZING', {}, entry)
      .catch((e: unknown) => e);

    // Assert
    expect(conflict).toBeInstanceOf(ConflictError);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Put']);
    expect(items[0]!.Update!.Key).toEqual(keys.dataset('h1', 'd1'));
    expect(items[1]!.Put!.Item).toMatchObject({ pk: keys.auditPendingPartition('h1'), action: 'STATUS_CHANGED' });
  });

  it('invokes the appender synchronously to drain and to keep a verification; its failure is a TransientError', async () => {
    // Arrange
    lambda
      .on(InvokeCommand)
      .resolvesOnce({ StatusCode: 200, Payload: payload({ chained: 2 }) })
      .resolvesOnce({ StatusCode: 200, Payload: payload({}) })
      .resolves({
        StatusCode: 200,
        FunctionError: 'Unhandled',
        Payload: payload({ errorType: 'Runtime.ExitError', errorMessage: 'exit status 1' }),
      });

    // Act
    await writer().settle!('h1');
    await writer().recordVerification('h1', { at: '2026-11-25T10:00:00.000Z', verified: true, checkedEvents: 3 });
    const crashed = await writer().settle!('h1').catch((e: unknown) => e);

    // Assert
    const call = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(call).toMatchObject({ FunctionName: 'imaging-dev-audit-appender', InvocationType: 'RequestResponse' });
    expect(sent(0)).toEqual({ op: 'drain', hospitalId: 'h1' });
    expect(sent(1)).toMatchObject({ op: 'recordVerification', hospitalId: 'h1', verification: { checkedEvents: 3 } });
    expect(crashed).toBeInstanceOf(TransientError);
  });
});

describe('the audit appender', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = 'imaging-dev';
    resetEnvCache();
  });

  const pending = [
    pendingItem(entry, 'e1', '2026-11-25T10:00:00.000Z'),
    pendingItem({ ...entry, action: 'DATASET_VIEWED' }, 'e2', '2026-11-25T10:00:00.001Z'),
  ];
  /** A stream batch as Lambda's DynamoDB event source hands it (NEW_IMAGE, attribute-value form). */
  const streamEvent = {
    Records: [
      { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'auditPending' }, hospitalId: { S: 'h1' } } } },
      { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'auditPending' }, hospitalId: { S: 'h1' } } } },
      { eventName: 'MODIFY', dynamodb: { NewImage: { entity: { S: 'auditPending' }, hospitalId: { S: 'h2' } } } },
      { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'dataset' }, hospitalId: { S: 'h3' } } } },
    ],
  };

  it("chains a hospital's pending events from a stream batch in one transaction with the head", async () => {
    // Arrange: an empty head, two pending events, then none left.
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolvesOnce({ Items: pending }).resolves({ Items: [] });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    const result = await appendEvents(streamEvent);

    // Assert
    expect(hospitalsOfStream(streamEvent)).toEqual(['h1']);
    expect(result).toEqual({ chained: 2 });
    const writes = ddb.commandCalls(TransactWriteCommand);
    expect(writes).toHaveLength(1);
    const items = writes[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Put', 'Put', 'Delete', 'Delete']);
    expect(items[0]!.Update!.Key).toEqual(keys.auditHead('h1'));
    expect(items[0]!.Update!.ExpressionAttributeValues![':seq']).toBe(2);
    expect(items[1]!.Put!.Item).toMatchObject({ id: 'e1', seq: 1, sk: keys.auditSeqKey(1) });
    expect(items[2]!.Put!.Item).toMatchObject({ id: 'e2', seq: 2, prevHash: items[1]!.Put!.Item!.hash });
    expect(items[3]!.Delete!.Key).toEqual({ pk: keys.auditPendingPartition('h1'), sk: pending[0]!.sk });
    expect(items[3]!.Delete!.ConditionExpression).toBe('attribute_exists(#pk)');
  });

  it('re-reads the head after a lost race and chains the batch after the events that won it', async () => {
    // Arrange: another appender moved the head to seq 5 between the read and the transaction.
    ddb
      .on(GetCommand)
      .resolvesOnce({})
      .resolves({ Item: { ...keys.auditHead('h1'), seq: 5, hash: 'a'.repeat(64) } });
    ddb.on(QueryCommand).resolvesOnce({ Items: pending }).resolvesOnce({ Items: pending }).resolves({ Items: [] });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None']))
      .resolves({});

    // Act
    const result = await appendEvents({ op: 'drain', hospitalId: 'h1' });

    // Assert
    expect(result).toEqual({ chained: 2 });
    const second = ddb.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems!;
    expect(second[1]!.Put!.Item).toMatchObject({ id: 'e1', seq: 6, prevHash: 'a'.repeat(64) });
  });

  it('fails a batch it cannot write as a TransientError, so the stream hands it again', async () => {
    // Arrange
    ddb.on(GetCommand).resolves({});
    ddb.on(QueryCommand).resolves({ Items: pending });
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));

    // Act
    const failed = await appendEvents(streamEvent).catch((e: unknown) => e);

    // Assert
    expect(failed).toBeInstanceOf(TransientError);
  });

  it('keeps a verification with its checkpoint on the head, and refuses anything else', async () => {
    // Arrange
    ddb.on(UpdateCommand).resolves({});
    const verification = {
      at: '2026-11-25T10:00:00.000Z',
      verified: true,
      checkedEvents: 2,
      verifiedSeq: 2,
      verifiedHash: 'b'.repeat(64),
    };

    // Act
    await appendEvents({ op: 'recordVerification', hospitalId: 'h1', verification });
    const refused = await appendEvents({ op: 'append', entry }).catch((e: unknown) => e);

    // Assert
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.Key).toEqual(keys.auditHead('h1'));
    expect(update.ExpressionAttributeValues![':v']).toEqual(verification);
    expect(refused).toMatchObject({ name: 'RefusedAuditRequest' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
