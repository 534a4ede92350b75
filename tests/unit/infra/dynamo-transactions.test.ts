/**
 * The twin's DynamoDB front end (infra/local/dynamo-transactions.ts) over a real dynalite in this process, through
 * the AWS SDK v3 as the functions call it: TransactWriteItems and TransactGetItems with DynamoDB's answers and
 * errors, all or nothing as other callers see them, and ReturnValuesOnConditionCheckFailure on single writes
 * (docs/local-twin.md#transactions).
 */
import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DynamoDBClient,
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import dynalite from 'dynalite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenDynamo } from '#infra/local/dynamo.ts';
import { withTransactions, type RequestHandler } from '#infra/local/dynamo-transactions.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';

const TableName = 'transactions';
const { pk: PK, sk: SK } = TABLE_KEYS.primary;
const key = (id: string) => ({ [PK]: `T#${id}`, [SK]: 'ITEM' });

let stop: () => Promise<void>;
let low: DynamoDBClient;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  const dynamo = await listenDynamo();
  stop = dynamo.close;
  low = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: dynamo.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  doc = DynamoDBDocumentClient.from(low);
  await low.send(new CreateTableCommand(createTableInput(TableName)));
});

afterAll(async () => {
  low.destroy();
  await stop();
});

const get = async (id: string) =>
  (await doc.send(new GetCommand({ TableName, Key: key(id), ConsistentRead: true }))).Item;
const put = (id: string, fields: Record<string, unknown>) =>
  doc.send(new PutCommand({ TableName, Item: { ...key(id), ...fields } }));
const transact = (items: TransactWriteCommandInput['TransactItems']) =>
  doc.send(new TransactWriteCommand({ TransactItems: items }));
const rejection = async (promise: Promise<unknown>): Promise<Error & Record<string, unknown>> => {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to be refused');
};
/** A transaction's action adding 1 to the item's `n`. */
const addOne = (id: string) => ({
  Update: {
    TableName,
    Key: key(id),
    UpdateExpression: 'ADD #n :one',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});
const notThere = { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': PK } };

describe('TransactWriteItems on the twin', () => {
  it('applies a Put, an Update, a Delete and a ConditionCheck together', async () => {
    await put('s-upd', { n: 1 });
    await put('s-del', { n: 1 });
    await put('s-chk', { state: 'open' });
    await transact([
      { Put: { TableName, Item: { ...key('s-new'), n: 7 }, ...notThere } },
      {
        Update: {
          TableName,
          Key: key('s-upd'),
          UpdateExpression: 'SET #n = #n + :one',
          ConditionExpression: '#n = :one',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      { Delete: { TableName, Key: key('s-del') } },
      {
        ConditionCheck: {
          TableName,
          Key: key('s-chk'),
          ConditionExpression: '#s = :open',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':open': 'open' },
        },
      },
      // A check on an item that is not there passes and leaves nothing behind.
      { ConditionCheck: { TableName, Key: key('s-absent'), ...notThere } },
    ]);
    expect(await get('s-new')).toMatchObject({ n: 7 });
    expect(await get('s-upd')).toMatchObject({ n: 2 });
    expect(await get('s-del')).toBeUndefined();
    expect(await get('s-chk')).toEqual({ ...key('s-chk'), state: 'open' });
    expect(await get('s-absent')).toBeUndefined();
  });

  it('cancels on a false condition with one reason per item, in order, and writes nothing', async () => {
    await put('f-taken', { n: 1, owner: 'first' });
    await put('f-upd', { n: 1 });
    await put('f-del', { n: 1 });
    const error = await rejection(
      transact([
        { Put: { TableName, Item: { ...key('f-new'), n: 1 } } },
        {
          Update: {
            TableName,
            Key: key('f-upd'),
            UpdateExpression: 'SET #n = :two',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':two': 2 },
          },
        },
        {
          Put: {
            TableName,
            Item: { ...key('f-taken'), n: 2, owner: 'second' },
            ...notThere,
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        { Delete: { TableName, Key: key('f-del') } },
        {
          ConditionCheck: {
            TableName,
            Key: key('f-missing'),
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { '#pk': PK },
          },
        },
      ]),
    );
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = (error as unknown as TransactionCanceledException).CancellationReasons!;
    expect(reasons.map((r) => r.Code)).toEqual([
      'None',
      'None',
      'ConditionalCheckFailed',
      'None',
      'ConditionalCheckFailed',
    ]);
    expect(reasons[2]).toMatchObject({
      Message: 'The conditional request failed',
      // The item as it stands, as DynamoDB returns it (attribute values), only where ALL_OLD was asked.
      Item: { [PK]: { S: 'T#f-taken' }, owner: { S: 'first' }, n: { N: '1' } },
    });
    expect(reasons[4]!.Item).toBeUndefined();
    expect(error.message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ConditionalCheckFailed, None, ConditionalCheckFailed]',
    );
    // Nothing of it was written: the new item is absent, the others are as they were.
    expect(await get('f-new')).toBeUndefined();
    expect(await get('f-upd')).toMatchObject({ n: 1 });
    expect(await get('f-del')).toMatchObject({ n: 1 });
    expect(await get('f-taken')).toMatchObject({ n: 1, owner: 'first' });
  });

  it('lets exactly one of concurrent transactions on the same item win', async () => {
    await put('race', { v: 0 });
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        transact([
          {
            Update: {
              TableName,
              Key: key('race'),
              UpdateExpression: 'SET #v = :next',
              ConditionExpression: '#v = :zero',
              ExpressionAttributeNames: { '#v': 'v' },
              ExpressionAttributeValues: { ':zero': 0, ':next': i + 1 },
            },
          },
          { Put: { TableName, Item: { ...key(`race-won-${i}`), by: i } } },
        ]),
      ),
    );
    const won = attempts.flatMap((a, i) => (a.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') {
        expect((attempt.reason as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
          'ConditionalCheckFailed',
          'None',
        ]);
      }
    }
    expect(await get('race')).toMatchObject({ v: won[0]! + 1 });
    // Only the winner's second item exists: the losers' puts were undone.
    const seconds = await Promise.all(Array.from({ length: 12 }, (_, i) => get(`race-won-${i}`)));
    expect(seconds.flatMap((item, i) => (item ? [i] : []))).toEqual(won);
  });

  it('is atomic as other callers see it: a transactional read never sees half a transaction', async () => {
    await put('pair-a', { n: 0 });
    await put('pair-b', { n: 0 });
    const seen: [number, number][] = [];
    const writes = Array.from({ length: 20 }, () => transact([addOne('pair-a'), addOne('pair-b')]));
    const reads = Array.from({ length: 20 }, async () => {
      const { Responses } = await doc.send(
        new TransactGetCommand({
          TransactItems: [{ Get: { TableName, Key: key('pair-a') } }, { Get: { TableName, Key: key('pair-b') } }],
        }),
      );
      seen.push([Number(Responses![0]!.Item!.n), Number(Responses![1]!.Item!.n)]);
    });
    await Promise.all([...writes, ...reads]);
    expect(seen.every(([a, b]) => a === b)).toBe(true);
    expect(await get('pair-a')).toMatchObject({ n: 20 });
    expect(await get('pair-b')).toMatchObject({ n: 20 });
  });

  it("never lets another caller see a cancelled transaction's writes, even for a moment", async () => {
    // Each transaction writes `phantom` and then fails its check: the put is applied, then undone, inside the gate.
    const cancelled = () =>
      rejection(
        transact([
          { Put: { TableName, Item: { ...key('phantom'), n: 1 } } },
          {
            ConditionCheck: {
              TableName,
              Key: key('phantom-guard'),
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: { '#pk': PK },
            },
          },
        ]),
      );
    const seen: unknown[] = [];
    await Promise.all([
      ...Array.from({ length: 30 }, cancelled),
      ...Array.from({ length: 150 }, async () => seen.push(await get('phantom'))),
    ]);
    expect(seen.filter(Boolean)).toEqual([]);
    expect(await get('phantom')).toBeUndefined();
  });

  it('refuses more than 100 items, or two operations on one item, as a ValidationException, writing nothing', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ Put: { TableName, Item: { ...key(`many-${i}`) } } }));
    const tooMany = await rejection(transact(many));
    expect(tooMany.name).toBe('ValidationException');
    expect(tooMany.message).toMatch(/less than or equal to 100/);
    expect(await get('many-0')).toBeUndefined();

    const twice = await rejection(
      transact([
        { Put: { TableName, Item: { ...key('twice'), n: 1 } } },
        { ConditionCheck: { TableName, Key: key('twice'), ...notThere } },
      ]),
    );
    expect(twice.name).toBe('ValidationException');
    expect(twice.message).toBe('Transaction request cannot include multiple operations on one item');
    expect(await get('twice')).toBeUndefined();

    const empty = await rejection(transact([]));
    expect(empty.name).toBe('ValidationException');
  });

  it("answers dynalite's own error for an invalid expression, undoing the items already written", async () => {
    const error = await rejection(
      transact([
        { Put: { TableName, Item: { ...key('bad-first'), n: 1 } } },
        { Update: { TableName, Key: key('bad-second'), UpdateExpression: 'SET = nonsense' } },
      ]),
    );
    expect(error.name).toBe('ValidationException');
    expect(await get('bad-first')).toBeUndefined();
  });
});

describe("conditions the item's existence decides", () => {
  it('decides attribute_(not_)exists of a key from the item, and any other condition through dynalite', async () => {
    // Arrange
    await put('ex-there', { n: 1 });
    const checkOwnerAbsent = {
      ConditionExpression: 'attribute_not_exists(#owner)',
      ExpressionAttributeNames: { '#owner': 'owner' },
    };

    // Act and assert: a key's existence passes and fails as the item's does.
    await transact([{ Put: { TableName, Item: { ...key('ex-new'), n: 1 }, ...notThere } }]);
    expect(await get('ex-new')).toMatchObject({ n: 1 });
    const gone = await rejection(
      transact([
        {
          Delete: {
            TableName,
            Key: key('ex-absent'),
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { '#pk': PK },
          },
        },
      ]),
    );
    expect((gone as unknown as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'ConditionalCheckFailed',
    ]);
    // Not a key: dynalite evaluates it (the item is there, its owner is not).
    await transact([{ Put: { TableName, Item: { ...key('ex-there'), n: 2 }, ...checkOwnerAbsent } }]);
    expect(await get('ex-there')).toMatchObject({ n: 2 });
    // A value the expression does not use is refused as DynamoDB refuses it, whatever the item.
    const unused = await rejection(
      transact([
        {
          ConditionCheck: {
            TableName,
            Key: key('ex-there'),
            ...notThere,
            ExpressionAttributeValues: { ':unused': 1 },
          },
        },
      ]),
    );
    expect(unused.name).toBe('ValidationException');
  });
});

describe('TransactGetItems on the twin', () => {
  it('answers each item in order, an empty response for a missing one, with projections', async () => {
    await put('g-1', { a: 1, b: 2 });
    await put('g-2', { a: 3, b: 4 });
    const { Responses } = await doc.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName, Key: key('g-2') } },
          { Get: { TableName, Key: key('g-missing') } },
          { Get: { TableName, Key: key('g-1'), ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': 'a' } } },
        ],
      }),
    );
    expect(Responses).toEqual([{ Item: { ...key('g-2'), a: 3, b: 4 } }, {}, { Item: { a: 1 } }]);
  });

  it('refuses two reads of one item', async () => {
    const error = await rejection(
      doc.send(
        new TransactGetCommand({
          TransactItems: [{ Get: { TableName, Key: key('g-1') } }, { Get: { TableName, Key: key('g-1') } }],
        }),
      ),
    );
    expect(error.name).toBe('ValidationException');
  });
});

describe('ReturnValuesOnConditionCheckFailure on single writes', () => {
  it('carries the item as it stands on a refused PutItem or UpdateItem with ALL_OLD, and nothing without it', async () => {
    await put('old', { n: 5 });
    const refusedPut = await rejection(
      low.send(
        new PutItemCommand({
          TableName,
          Item: { [PK]: { S: 'T#old' }, [SK]: { S: 'ITEM' }, n: { N: '6' } },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    expect(refusedPut).toBeInstanceOf(ConditionalCheckFailedException);
    expect((refusedPut as unknown as ConditionalCheckFailedException).Item).toEqual({
      [PK]: { S: 'T#old' },
      [SK]: { S: 'ITEM' },
      n: { N: '5' },
    });

    const update = (extra: object) =>
      low.send(
        new UpdateItemCommand({
          TableName,
          Key: { [PK]: { S: 'T#old' }, [SK]: { S: 'ITEM' } },
          UpdateExpression: 'SET #n = :n',
          ConditionExpression: '#n = :zero',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':n': { N: '1' }, ':zero': { N: '0' } },
          ...extra,
        }),
      );
    const refusedUpdate = await rejection(update({ ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    expect((refusedUpdate as unknown as ConditionalCheckFailedException).Item?.n).toEqual({ N: '5' });
    const plain = await rejection(update({}));
    expect(plain).toBeInstanceOf(ConditionalCheckFailedException);
    expect((plain as unknown as ConditionalCheckFailedException).Item).toBeUndefined();
    expect(await get('old')).toMatchObject({ n: 5 });
  });

  it('lets the low-level client see the same cancellation reasons', async () => {
    await put('low', { n: 1 });
    const error = await rejection(
      low.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName,
                Item: { [PK]: { S: 'T#low' }, [SK]: { S: 'ITEM' } },
                ConditionExpression: 'attribute_not_exists(#pk)',
                ExpressionAttributeNames: { '#pk': PK },
              },
            },
          ],
        }),
      ),
    );
    expect((error as unknown as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    ]);
  });
});

describe('isolation per item', () => {
  /**
   * A front end over a dynalite whose reads of one item can be held back: the transaction's read of that item's
   * current image waits until the test lets it go, so the transaction is in progress for as long as the test likes.
   */
  async function frontWithPausableItem(pausedItem: string) {
    const store = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }) as ReturnType<typeof createServer>;
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', () => resolve()));
    const inner = store.listeners('request')[0] as RequestHandler;
    let paused: { reached: () => void; until: Promise<void> } | undefined;
    const pausing: RequestHandler = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const forward = () => {
          const again = Object.assign(new PassThrough(), { method: req.method, url: req.url, headers: req.headers });
          inner(again as unknown as IncomingMessage, res);
          again.end(body);
        };
        const hold = paused;
        const readsItem =
          /\.(Batch)?GetItem$/.test(String(req.headers['x-amz-target'])) && body.toString('utf8').includes(pausedItem);
        if (!hold || !readsItem) return forward();
        paused = undefined;
        hold.reached();
        void hold.until.then(forward);
      });
    };
    const front = withTransactions(pausing);
    const server = createServer((req: IncomingMessage, res: ServerResponse) => front(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await client.send(new CreateTableCommand(createTableInput(TableName)));
    return {
      doc: DynamoDBDocumentClient.from(client),
      /** Holds the next read of the paused item; resolves `reached` when the front end makes it. */
      pause() {
        let go!: () => void;
        let reached!: () => void;
        const until = new Promise<void>((resolve) => (go = resolve));
        const arrived = new Promise<void>((resolve) => (reached = resolve));
        paused = { reached, until };
        return { arrived, go };
      },
      async close() {
        client.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await new Promise<void>((resolve) => store.close(() => resolve()));
      },
    };
  }

  it('answers requests on other items while a transaction runs, and holds reads of its items until it is done', async () => {
    const front = await frontWithPausableItem('T#held');
    try {
      const { doc: client } = front;
      await client.send(new PutCommand({ TableName, Item: { ...key('held'), n: 0 } }));
      await client.send(new PutCommand({ TableName, Item: { ...key('free'), n: 0 } }));
      const { arrived, go } = front.pause();
      let transactionDone = false;
      const transaction = client
        .send(
          new TransactWriteCommand({
            TransactItems: [addOne('held')],
          }),
        )
        .then(() => (transactionDone = true));
      await arrived;

      // While the transaction holds `held`, another item is read, written and queried.
      await client.send(new PutCommand({ TableName, Item: { ...key('free'), n: 5 } }));
      const free = await client.send(new GetCommand({ TableName, Key: key('free'), ConsistentRead: true }));
      expect(free.Item).toMatchObject({ n: 5 });
      const queried = await client.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': PK },
          ExpressionAttributeValues: { ':pk': 'T#free' },
        }),
      );
      expect(queried.Items).toHaveLength(1);
      expect(transactionDone).toBe(false);

      // A read of the transaction's own item waits for it, then sees its write.
      let readDone = false;
      const read = client
        .send(new GetCommand({ TableName, Key: key('held'), ConsistentRead: true }))
        .then((answer) => ((readDone = true), answer.Item));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readDone).toBe(false);
      go();
      await transaction;
      expect(await read).toMatchObject({ n: 1 });
    } finally {
      await front.close();
    }
  });
});
