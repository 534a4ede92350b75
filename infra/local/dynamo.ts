import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dynalite from 'dynalite';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { ensureDir } from './data-dir.ts';
import { withTransactions } from './dynamo-transactions.ts';

/**
 * DynamoDB stand-in: dynalite in this process (LevelDB under <data>/dynamodb; survives a kill), reached at
 * /_aws/dynamodb on the public port, behind the front end that adds transactions (docs/local-twin.md#transactions).
 * LevelDB allows one process per folder, which the data-folder lock guarantees. Without a data folder the store is
 * in memory (tests).
 */
export type DynamoService = {
  handle(req: IncomingMessage, res: ServerResponse, path: string): void;
  close(): Promise<void>;
};

export async function startDynamo(dataDir?: string): Promise<DynamoService> {
  const server = dynalite({
    ...(dataDir ? { path: ensureDir(join(dataDir, 'dynamodb')) } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  }) as Server;
  // dynalite opens LevelDB when created; listening on an internal port lets its close() run its own graceful shutdown.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const requestHandler = withTransactions(
    server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void,
  );
  return {
    handle(req, res, path) {
      req.url = path;
      requestHandler(req, res);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The twin's DynamoDB stand-in (dynalite behind the same front end) in memory on a port of its own, for tests that
 * run the adapters in process (tests/integration/datasets-harness.ts).
 */
export async function listenDynamo(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const service = await startDynamo();
  const server = createServer((req, res) => service.handle(req, res, req.url ?? '/'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}

/**
 * Creates the single table from the shared key design when it does not exist yet (idempotent); a table of an older
 * data folder gets the indexes added since (docs/local-twin.md).
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const call = async (target: string, body: unknown) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${target}`,
        'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
        // dynalite only checks that a SigV4 header is present.
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const described = await call('DescribeTable', { TableName: tableName });
  if (described.status === 200) {
    await addMissingIndexes(call, tableName, described.body);
    return;
  }
  if (!String(described.body.__type ?? '').includes('ResourceNotFoundException')) {
    throw new Error(`The local table store did not answer: ${String(described.body.message ?? described.body.__type)}`);
  }
  const created = await call('CreateTable', createTableInput(tableName));
  if (created.status !== 200 && !String(created.body.__type ?? '').includes('ResourceInUseException')) {
    throw new Error(`Could not create the local table: ${String(created.body.message ?? created.body.__type)}`);
  }
}

type Call = (target: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

/**
 * dynalite's UpdateTable changes throughput only, so an index cannot be added in place: the table's items are read
 * out, the table is created again from the key design and the items are written back (the indexes fill as they are
 * written). Only the local twin does this; the cloud table gets its indexes from the stack.
 */
async function addMissingIndexes(call: Call, tableName: string, described: Record<string, unknown>): Promise<void> {
  const table = (described.Table ?? {}) as { GlobalSecondaryIndexes?: { IndexName: string }[] };
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const wanted = createTableInput(tableName);
  if (wanted.GlobalSecondaryIndexes.every((index) => present.has(index.IndexName))) return;
  const ok = (step: string, answer: { status: number; body: Record<string, unknown> }) => {
    if (answer.status !== 200)
      throw new Error(`Could not ${step} the local table: ${String(answer.body.message ?? answer.body.__type)}`);
    return answer.body;
  };
  const items: unknown[] = [];
  let startKey: unknown;
  do {
    const page = ok('read', await call('Scan', { TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...((page.Items as unknown[] | undefined) ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  ok('delete', await call('DeleteTable', { TableName: tableName }));
  await waitFor(call, tableName, (answer) => answer.status !== 200);
  ok('create', await call('CreateTable', wanted));
  await waitFor(call, tableName, (answer) => (answer.body.Table as { TableStatus?: string })?.TableStatus === 'ACTIVE');
  for (let i = 0; i < items.length; i += 25) {
    let requests: unknown[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error('Could not write the local table back: items left unprocessed');
      const written = ok('write', await call('BatchWriteItem', { RequestItems: { [tableName]: requests } }));
      requests = ((written.UnprocessedItems as Record<string, unknown[]> | undefined) ?? {})[tableName] ?? [];
    }
  }
}

async function waitFor(
  call: Call,
  tableName: string,
  done: (answer: { status: number; body: Record<string, unknown> }) => boolean,
): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (done(await call('DescribeTable', { TableName: tableName }))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The local table did not settle');
}
