import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPendingStream, type StreamRecord } from '#infra/local/dynamo-stream.ts';
import { pendingItem } from '#functions/adapters/dynamo/audit-pending.ts';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * The twin's stand-in for the table's stream (docs/local-twin.md#audit-stream): the router passes DynamoDB requests
 * on and the stream watches them; here a server answering as dynalite would (200, or 400 for a refused write) stands
 * in for dynalite's process.
 */
const entry = {
  hospitalId: 'h1',
  action: 'DATASET_VIEWED',
  actorUserId: 'u1',
  actorName: 'Pat Lead',
  datasetId: 'd1',
  details: {},
};
const pending = (n: number) => marshall(pendingItem(entry, `e${n}`, `2026-11-25T10:00:00.00${n}Z`));

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function router(stream: ReturnType<typeof createPendingStream>): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.headers['x-refuse'] ? 400 : 200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
    stream.observe(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const send = (url: string, target: string, body: unknown, refuse = false) =>
  fetch(url, {
    method: 'POST',
    headers: { 'x-amz-target': `DynamoDB_20120810.${target}`, ...(refuse ? { 'x-refuse': '1' } : {}) },
    body: JSON.stringify(body),
  }).then((r) => r.text());

describe("the twin's audit stream", () => {
  it('hands the appender the accepted pending events, as the cloud filter passes them', async () => {
    // Arrange
    const batches: StreamRecord[][] = [];
    const stream = createPendingStream({ deliver: async (e) => void batches.push(e.Records), log: () => undefined });
    const url = await router(stream);

    // Act: a put, a transaction with a pending event beside a dataset update, another table item, a refused put.
    await send(url, 'PutItem', { TableName: 't', Item: pending(1) });
    await send(url, 'TransactWriteItems', {
      TransactItems: [{ Update: { TableName: 't', Key: {} } }, { Put: { TableName: 't', Item: pending(2) } }],
    });
    await send(url, 'PutItem', { TableName: 't', Item: marshall({ pk: 'H#h1', sk: 'DS#d1', entity: 'dataset' }) });
    await send(url, 'PutItem', { TableName: 't', Item: pending(3) }, true);
    await stream.close();

    // Assert
    expect(batches.flat().map((r) => r.dynamodb.NewImage.id?.S)).toEqual(['e1', 'e2']);
    expect(batches[0]![0]).toMatchObject({
      eventName: 'INSERT',
      dynamodb: { StreamViewType: 'NEW_IMAGE', NewImage: { entity: { S: 'auditPending' }, hospitalId: { S: 'h1' } } },
    });
  });

  it('hands a failed batch again until the appender takes it', async () => {
    // Arrange
    let calls = 0;
    const stream = createPendingStream({
      deliver: async () => {
        if (++calls < 3) throw new Error('appender crashed');
      },
      log: () => undefined,
      retryDelayMs: 1,
    });
    const url = await router(stream);

    // Act
    await send(url, 'PutItem', { TableName: 't', Item: pending(1) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stream.close();

    // Assert
    expect(calls).toBe(3);
  });
});
