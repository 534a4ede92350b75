/**
 * The audit trail's one writer (docs/domain.md#audit-trail), as only the cloud runs it end to end: functions invoke
 * the appender through the Lambda API, and the appender writes the chain in a DynamoDB transaction. Both sides are
 * checked here against the SDKs' own clients with aws-sdk-client-mock.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInvokedAuditWriter } from '#functions/adapters/lambda/audit-appender.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { handler as appendEvents } from '#functions/audit/append-events.ts';
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

describe('a function appending to the audit trail', () => {
  const writer = () =>
    createInvokedAuditWriter({ region: 'eu-west-1', functionName: 'imaging-dev-audit-appender' }, new LambdaClient({}));

  it('invokes the appender synchronously with the event and the update that goes with it', async () => {
    // Prepare
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({}) });
    const alongside = { TableName: 'imaging-dev', Key: keys.dataset('h1', 'd1'), UpdateExpression: 'SET #s = :s' };

    // Act
    await writer().append(entry, alongside);
    await writer().recordVerification('h1', { at: '2026-11-25T10:00:00.000Z', verified: true, checkedEvents: 3 });

    // Assess
    const call = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(call).toMatchObject({ FunctionName: 'imaging-dev-audit-appender', InvocationType: 'RequestResponse' });
    expect(sent(0)).toEqual({ op: 'append', entry, alongside });
    expect(sent(1)).toMatchObject({ op: 'recordVerification', hospitalId: 'h1', verification: { checkedEvents: 3 } });
  });

  it("tells the caller's own false condition apart from a failure of the appender", async () => {
    // Prepare: a dataset no longer in the status the update expected, then an appender that crashed.
    lambda
      .on(InvokeCommand)
      .resolvesOnce({
        StatusCode: 200,
        FunctionError: 'Unhandled',
        Payload: payload({ errorType: 'ConditionalCheckFailedException', errorMessage: 'x' }),
      })
      .resolves({
        StatusCode: 200,
        FunctionError: 'Unhandled',
        Payload: payload({ errorType: 'Runtime.ExitError', errorMessage: 'exit status 1' }),
      });
    const datasets = createDatasetRepository(
      { doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-dev' },
      writer(),
    );
    ddb.on(GetCommand).resolves({ Item: { ...keys.dataset('h1', 'd1'), status: 'COMPLETE' } });

    // Act
    const conflict = datasets.transition('h1', 'd1', ['UPLOADING'], 'ANONYMIZING', {}, entry).catch((e) => e);
    const crashed = writer()
      .append(entry)
      .catch((e: unknown) => e);

    // Assess
    expect(await conflict).toBeInstanceOf(ConflictError);
    expect(await crashed).toBeInstanceOf(TransientError);
  });
});

describe('the audit appender', () => {
  beforeEach(() => {
    process.env.TABLE_NAME = 'imaging-dev';
    resetEnvCache();
  });

  it('appends the event and the update in one transaction with the head', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
    const alongside = { TableName: 'imaging-dev', Key: keys.dataset('h1', 'd1'), UpdateExpression: 'SET #s = :s' };

    // Act
    await appendEvents({ op: 'append', entry, alongside });

    // Assess
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Update', 'Put']);
    expect(items[0]!.Update!.Key).toEqual(keys.dataset('h1', 'd1'));
    expect(items[1]!.Update!.Key).toEqual(keys.auditHead('h1'));
    expect(items[2]!.Put!.Item).toMatchObject({ action: 'STATUS_CHANGED', seq: 1, hospitalId: 'h1' });
  });

  it('refuses an update aimed at the trail itself or another table, and anything malformed', async () => {
    // Prepare
    const onTrail = {
      TableName: 'imaging-dev',
      Key: keys.auditEvent('h1', { seq: 1, at: 'a', id: 'i', actorUserId: 'u' }),
      UpdateExpression: 'SET #a = :a',
    };
    const onHead = { TableName: 'imaging-dev', Key: keys.auditHead('h1'), UpdateExpression: 'SET #a = :a' };
    const elsewhere = { TableName: 'other', Key: keys.dataset('h1', 'd1'), UpdateExpression: 'SET #a = :a' };

    // Act + Assess
    for (const alongside of [onTrail, onHead, elsewhere])
      await expect(appendEvents({ op: 'append', entry, alongside })).rejects.toMatchObject({
        name: 'RefusedAuditRequest',
      });
    await expect(appendEvents({ op: 'rewrite', entry })).rejects.toMatchObject({ name: 'RefusedAuditRequest' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it("passes back the caller's false condition by name, and a lost race as a retry", async () => {
    // Prepare: the dataset's own condition fails (reason 0), then every attempt loses the head.
    ddb.on(GetCommand).resolves({});
    const cancelled = (codes: string[]) =>
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: codes.map((Code) => ({ Code })),
      });
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None']));
    const alongside = { TableName: 'imaging-dev', Key: keys.dataset('h1', 'd1'), UpdateExpression: 'SET #s = :s' };

    // Act
    const own = await appendEvents({ op: 'append', entry, alongside }).catch((e: Error) => e);

    // Assess
    expect(own).toMatchObject({ name: 'ConditionalCheckFailedException' });
  });
});
