/**
 * The DynamoDB answers the twin's store seldom or never gives (throttling, TransactionConflict, a cancellation for
 * capacity): the status change's transaction with its audit event, its cancellation reasons and the conditional
 * failures, checked against the SDK's own exception classes. The twin runs the same transaction end to end
 * (tests/unit/infra/dynamo-transactions.test.ts, tests/integration/audit-trail.test.ts).
 */
import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { createAuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { ConflictError, NotFoundError, TransientError } from '#shared/domain/errors.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

const table = () => ({ doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-test' });
const audit: AuditEntry = {
  hospitalId: 'h1',
  datasetId: 'd1',
  action: 'STATUS_CHANGED',
  actorUserId: 'pipeline',
  actorName: 'Pipeline',
  details: { from: 'UPLOADING', to: 'ANONYMIZING' },
};

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('dataset status change in the cloud (one transaction with its audit event)', () => {
  it('writes the conditional status update and the audit event in one TransactWriteItems, never two writes', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'ANONYMIZING' } });
    ddb.on(GetCommand, { Key: keys.auditHead('h1') }).resolves({ Item: { seq: 4, hash: 'f'.repeat(64) } });

    // Act
    const dataset = await createDatasetRepository(table()).transition(
      'h1',
      'd1',
      ['UPLOADING'],
      'ANONYMIZING',
      {},
      audit,
    );

    // Assess
    expect(dataset).toEqual({ id: 'd1', status: 'ANONYMIZING' });
    const [update, head, put] = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(update!.Update).toMatchObject({
      TableName: 'imaging-test',
      ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#deletedAt) AND #status IN (:expected0)',
      ExpressionAttributeValues: expect.objectContaining({ ':expected0': 'UPLOADING' }),
    });
    // The head moves from the previous hash only (a writer that read an older head loses), and the event takes the
    // next position, linked to that hash.
    expect(head!.Update).toMatchObject({
      Key: keys.auditHead('h1'),
      ConditionExpression: '#hash = :prev',
      ExpressionAttributeValues: expect.objectContaining({ ':prev': 'f'.repeat(64), ':seq': 5 }),
    });
    expect(put!.Put).toMatchObject({
      TableName: 'imaging-test',
      ConditionExpression: 'attribute_not_exists(#pk)',
      Item: {
        [TABLE_KEYS.primary.pk]: 'H#h1#AUDIT',
        [TABLE_KEYS.primary.sk]: 'SEQ#000000000005',
        action: 'STATUS_CHANGED',
        seq: 5,
        prevHash: 'f'.repeat(64),
      },
    });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('turns a cancellation for the status condition into ConflictError, and into DATASET_NOT_FOUND when it is gone', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None'));
    ddb
      .on(GetCommand, { Key: { [TABLE_KEYS.primary.pk]: 'H#h1', [TABLE_KEYS.primary.sk]: 'DS#d1' } })
      .resolvesOnce({ Item: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'COMPLETE' } })
      .resolvesOnce({});
    ddb.on(GetCommand, { Key: keys.auditHead('h1') }).resolves({});
    const repository = createDatasetRepository(table());

    // Act
    const moved = await failureOf(repository.transition('h1', 'd1', ['PROCESSING'], 'COMPLETE', {}, audit));
    const gone = await failureOf(repository.transition('h1', 'd1', ['PROCESSING'], 'COMPLETE', {}, audit));

    // Assess: and no fallback to separate writes, which would record an audit event for a change that did not happen.
    expect(moved).toBeInstanceOf(ConflictError);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('DATASET_NOT_FOUND');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('makes a cancellation for a concurrent transaction or throttling a TransientError, which the pipeline retries', async () => {
    // Prepare
    const repository = createDatasetRepository(table());

    for (const error of [
      cancelled('TransactionConflict', 'None', 'None'),
      cancelled('None', 'ThrottlingError', 'None'),
      new TransactionConflictException({ message: 'conflict', $metadata: {} }),
    ]) {
      ddb.reset();
      ddb.on(TransactWriteCommand).rejects(error);
      ddb.on(GetCommand).resolves({});

      // Act
      const failure = await failureOf(repository.transition('h1', 'd1', ['PROCESSING'], 'COMPLETE', {}, audit));

      // Assess: only the chain's head is read (each retry), never the dataset.
      expect(failure, error.name).toBeInstanceOf(TransientError);
      expect(ddb.commandCalls(GetCommand).every((c) => c.args[0].input.Key!.sk === 'HEAD')).toBe(true);
    }
  });

  it('passes any other cancellation up as it is (a malformed audit item is a bug, not a conflict)', async () => {
    // Prepare
    const invalid = cancelled('None', 'None', 'ValidationError');
    ddb.on(TransactWriteCommand).rejects(invalid);
    ddb.on(GetCommand).resolves({});

    // Act
    const failure = await failureOf(
      createDatasetRepository(table()).transition('h1', 'd1', ['PROCESSING'], 'COMPLETE', {}, audit),
    );

    // Assess
    expect(failure).toBe(invalid);
  });
});

describe('conditional writes', () => {
  it('a status change without an audit event is one conditional UpdateItem; a false condition is ConflictError', async () => {
    // Prepare
    ddb
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    ddb.on(GetCommand).resolves({ Item: { id: 'd1', status: 'FAILED' } });

    // Act
    const failure = await failureOf(
      createDatasetRepository(table()).transition('h1', 'd1', ['PROCESSING'], 'COMPLETE'),
    );

    // Assess
    expect(failure).toBeInstanceOf(ConflictError);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({ ReturnValues: 'ALL_NEW' });
  });

  it('refuses to create a dataset over an existing one (ConflictError) and to update a series that is not there', async () => {
    // Prepare
    const exists = new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    ddb.on(PutCommand).rejects(exists);
    ddb.on(UpdateCommand).rejects(exists);
    const repository = createDatasetRepository(table());

    // Act
    const created = await failureOf(
      repository.create({ id: 'd1', hospitalId: 'h1', status: 'CREATED' } as Parameters<typeof repository.create>[0]),
    );
    const series = await failureOf(repository.updateSeries('h1', 'd1', 's1', { selected: true }));

    // Assess
    expect(created).toBeInstanceOf(ConflictError);
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(#pk)');
    expect(series).toBeInstanceOf(NotFoundError);
    expect((series as NotFoundError).code).toBe('SERIES_NOT_FOUND');
  });
});

describe('audit chain appends in the cloud', () => {
  const entry = (n: number): AuditEntry => ({ ...audit, details: { n } });

  it('appends the next event after the head it last wrote without reading the head again', async () => {
    ddb.on(GetCommand, { Key: keys.auditHead('h1') }).resolves({ Item: { seq: 4, hash: 'f'.repeat(64) } });
    ddb.on(TransactWriteCommand).resolves({});
    const writer = createAuditChainWriter(table());

    await writer.append(entry(1));
    await writer.append(entry(2));

    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
    const positions = ddb
      .commandCalls(TransactWriteCommand)
      .map((call) => call.args[0].input.TransactItems!.find((item) => item.Put)!.Put!.Item!.seq);
    expect(positions).toEqual([5, 6]);
  });

  it('reads the head afresh when another writer moved it meanwhile, and appends after it', async () => {
    ddb
      .on(GetCommand, { Key: keys.auditHead('h1') })
      .resolvesOnce({ Item: { seq: 4, hash: 'f'.repeat(64) } })
      .resolves({ Item: { seq: 9, hash: 'e'.repeat(64) } });
    ddb
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(cancelled('ConditionalCheckFailed', 'ConditionalCheckFailed'))
      .resolves({});
    const writer = createAuditChainWriter(table());

    await writer.append(entry(1));
    await writer.append(entry(2));

    const puts = ddb
      .commandCalls(TransactWriteCommand)
      .map((call) => call.args[0].input.TransactItems!.find((item) => item.Put)!.Put!.Item!.seq);
    // 5 written; 6 refused (the head had moved to 9); then 10, after the head read again.
    expect(puts).toEqual([5, 6, 10]);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(2);
  });
});
