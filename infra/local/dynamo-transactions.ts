import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { ItemLocks, type ItemLock } from './readers-writer-gate.ts';

/**
 * What dynalite lacks and the cloud's code relies on, in front of dynalite's own request handler
 * (docs/local-twin.md#transactions):
 *
 * - TransactWriteItems and TransactGetItems, all or nothing as seen by every other caller. A request that names its
 *   items (a transaction, GetItem, PutItem, UpdateItem, DeleteItem, BatchWriteItem) locks each of them: a read shares
 *   its item, a write holds it alone, so requests on other items never wait for a transaction, as in DynamoDB, whose
 *   transactions are isolated per item
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-isolation).
 *   Holding its items, a transaction reads each one's current image, works out every action on a copy in a scratch
 *   table (so dynalite evaluates the condition and update expressions), and only when all of them pass writes the
 *   resulting items to the table. When a condition fails nothing was written, and it answers
 *   TransactionCanceledException with one reason per item, in order, as DynamoDB does
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 * - ReturnValuesOnConditionCheckFailure: ALL_OLD on PutItem, UpdateItem and DeleteItem: the refused write's
 *   ConditionalCheckFailedException carries the item as it stands (`Item`).
 *
 * Everything else goes to dynalite unchanged.
 */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

type Json = Record<string, unknown>;
/** An answer of the JSON 1.0 protocol: status, headers (dynalite's, when it answered) and the body. */
type Answer = { status: number; body: Json; headers?: Record<string, string | number> };

const API = 'DynamoDB_20120810';
/** DynamoDB's limit of actions in one transaction (API_TransactWriteItems.html, TransactItems). */
export const MAX_TRANSACTION_ITEMS = 100;
const WRITE_KINDS = ['ConditionCheck', 'Put', 'Delete', 'Update'] as const;
type WriteKind = (typeof WRITE_KINDS)[number];
const SINGLE_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);
/** Requests that name their items, and so lock them against a transaction on the same items. */
const ITEM_OPERATIONS = new Set([...SINGLE_WRITES, 'GetItem', 'BatchWriteItem']);
const CONDITION_FAILED = 'The conditional request failed';

const validation = (message: string): Answer => ({
  status: 400,
  body: { __type: 'com.amazon.coral.validate#ValidationException', message },
});

/**
 * Calls dynalite's handler in this process with a request of our own (no socket): the transaction's reads and writes,
 * made while the gate is held, so they must not queue behind it.
 */
function invoke(dynalite: RequestHandler, operation: string, input: Json): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    const req = Object.assign(new PassThrough(), {
      method: 'POST',
      url: '/',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${API}.${operation}`,
        'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
        // dynalite only checks that a SigV4 header is present.
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
      } satisfies IncomingHttpHeaders,
    });
    const headers: Record<string, string | number> = {};
    const res = {
      statusCode: 200,
      contentType: '',
      setHeader(name: string, value: string | number) {
        headers[name.toLowerCase()] = value;
      },
      end(body?: string) {
        resolve({ status: res.statusCode, headers, body: body ? (JSON.parse(body) as Json) : {} });
      },
    };
    dynalite(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    req.end(JSON.stringify(input));
  });
}

/** Hands a request whose body was already read to dynalite, as if it came straight from the client. */
function replay(dynalite: RequestHandler, original: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const req = Object.assign(new PassThrough(), {
    method: original.method,
    url: original.url,
    headers: original.headers,
  });
  dynalite(req as unknown as IncomingMessage, res);
  req.end(body);
}

function send(res: ServerResponse, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Releases the gate when dynalite answers (it calls end) or the client goes away, whichever comes first. */
function releaseOnAnswer(res: ServerResponse, release: () => void): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    release();
    return end(...args);
  }) as ServerResponse['end'];
  res.once('close', release);
}

/** dynalite's error answer to one of the front end's own calls, which the whole request then answers. */
class Refused {
  constructor(readonly answer: Answer) {}
}

const isConditionFailure = (answer: Answer) =>
  answer.status !== 200 && String(answer.body.__type ?? '').endsWith('#ConditionalCheckFailedException');

/** One write of a transaction, with the key it names. */
type Action = { kind: WriteKind; input: Json; tableName: string; key: Json };

/** Where a transaction's conditions and update expressions are evaluated before any of its writes is applied. */
export const scratchTableOf = (tableName: string) => `${tableName}-transactions`;

/**
 * Wraps dynalite's request handler with transactions and ReturnValuesOnConditionCheckFailure. The returned handler
 * takes requests as dynalite's does (URL already stripped of the twin's /_aws/dynamodb prefix).
 */
export function withTransactions(dynalite: RequestHandler): RequestHandler {
  const locks = new ItemLocks();
  const call = (operation: string, input: Json) => invoke(dynalite, operation, input);
  const keyNames = new Map<string, string[]>();
  const scratchTables = new Map<string, Promise<string | Refused>>();

  /** The table's key attribute names (hash, then range), from DescribeTable. */
  async function keyNamesOf(tableName: string): Promise<string[] | Refused> {
    const known = keyNames.get(tableName);
    if (known) return known;
    const described = await call('DescribeTable', { TableName: tableName });
    if (described.status !== 200) return new Refused(described);
    const schema = ((described.body.Table as Json | undefined)?.KeySchema ?? []) as {
      AttributeName: string;
      KeyType: string;
    }[];
    const names = [...schema].sort((a) => (a.KeyType === 'HASH' ? -1 : 1)).map((k) => k.AttributeName);
    keyNames.set(tableName, names);
    return names;
  }

  async function keyOf(tableName: string, keyOrItem: Json): Promise<Json | Refused> {
    const names = await keyNamesOf(tableName);
    if (names instanceof Refused) return names;
    return Object.fromEntries(names.map((name) => [name, keyOrItem[name]]));
  }

  /** One name per item, whatever order the request spelled its key attributes in. */
  const itemName = (tableName: string, key: Json) => JSON.stringify([tableName, key]);

  /** The item as it stands (ConsistentRead), undefined when there is none. */
  async function imageOf(tableName: string, key: Json): Promise<Json | undefined | Refused> {
    const got = await call('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
    if (got.status !== 200) return new Refused(got);
    return got.body.Item as Json | undefined;
  }

  /** Waits until DescribeTable of `tableName` satisfies `done` (dynalite changes a table's state on a timer). */
  async function settle(tableName: string, done: (answer: Answer) => boolean): Promise<void> {
    for (let tries = 0; tries < 500; tries++) {
      if (done(await call('DescribeTable', { TableName: tableName }))) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`table ${tableName} did not settle`);
  }

  /**
   * The scratch table of `tableName`: the same key schema, no indexes, made empty once per start (a twin killed in
   * the middle of a transaction may have left items in it). Nobody else reads it.
   */
  function scratchTable(tableName: string): Promise<string | Refused> {
    let made = scratchTables.get(tableName);
    if (!made) {
      made = (async () => {
        const described = await call('DescribeTable', { TableName: tableName });
        if (described.status !== 200) return new Refused(described);
        const table = described.body.Table as {
          KeySchema: { AttributeName: string }[];
          AttributeDefinitions: { AttributeName: string }[];
        };
        const keyAttributes = new Set(table.KeySchema.map((k) => k.AttributeName));
        const name = scratchTableOf(tableName);
        await call('DeleteTable', { TableName: name });
        await settle(name, (answer) => answer.status !== 200);
        const created = await call('CreateTable', {
          TableName: name,
          KeySchema: table.KeySchema,
          AttributeDefinitions: table.AttributeDefinitions.filter((a) => keyAttributes.has(a.AttributeName)),
          BillingMode: 'PAY_PER_REQUEST',
        });
        if (created.status !== 200) return new Refused(created);
        await settle(name, (answer) => (answer.body.Table as Json | undefined)?.TableStatus === 'ACTIVE');
        return name;
      })();
      scratchTables.set(tableName, made);
      // A failed attempt is not remembered: the next transaction tries again.
      void made.then((outcome) => outcome instanceof Refused && scratchTables.delete(tableName));
    }
    return made;
  }

  /** Puts (an item) or deletes (a key) in a table, 25 to a BatchWriteItem as DynamoDB allows. */
  async function writeBatches(
    tableName: string,
    writes: ({ Item: Json } | { Key: Json })[],
  ): Promise<Answer | undefined> {
    for (let i = 0; i < writes.length; i += 25) {
      let requests = writes
        .slice(i, i + 25)
        .map((w) => ('Item' in w ? { PutRequest: { Item: w.Item } } : { DeleteRequest: { Key: w.Key } }));
      while (requests.length > 0) {
        const answer = await call('BatchWriteItem', { RequestItems: { [tableName]: requests } });
        if (answer.status !== 200) return answer;
        requests = ((answer.body.UnprocessedItems as Json | undefined)?.[tableName] ?? []) as typeof requests;
      }
    }
    return undefined;
  }

  /** The items as they stand (consistent reads, one BatchGetItem for a whole transaction), in the actions' order. */
  async function imagesOf(actions: Action[]): Promise<(Json | undefined)[] | Refused> {
    const found = new Map<string, Json>();
    let wanted: Json = {};
    for (const a of actions) {
      const table = (wanted[a.tableName] ??= { Keys: [], ConsistentRead: true }) as { Keys: Json[] };
      table.Keys.push(a.key);
    }
    while (Object.keys(wanted).length > 0) {
      const answer = await call('BatchGetItem', { RequestItems: wanted });
      if (answer.status !== 200) return new Refused(answer);
      for (const [tableName, items] of Object.entries((answer.body.Responses ?? {}) as Record<string, Json[]>)) {
        const names = keyNames.get(tableName) ?? [];
        for (const item of items) {
          found.set(itemName(tableName, Object.fromEntries(names.map((n) => [n, item[n]]))), item);
        }
      }
      wanted = (answer.body.UnprocessedKeys ?? {}) as Json;
    }
    return actions.map((a) => found.get(itemName(a.tableName, a.key)));
  }

  /**
   * The outcome of an action whose answer the item's existence alone decides, without dynalite: a Put or Delete with
   * no condition, or a condition that is exactly `attribute_exists` or `attribute_not_exists` of a key attribute (a
   * key attribute is there exactly when the item is), with nothing else in its names or values. Undefined for any
   * other action, which the scratch table evaluates. These are the idempotence guards most transactions carry.
   */
  function knownOutcome(action: Action, before: Json | undefined): { answer: Answer; after?: Json } | undefined {
    const { input, kind } = action;
    if (kind === 'Update') return undefined;
    const passed = (): { answer: Answer; after?: Json } => ({
      answer: { status: 200, body: {} },
      ...(kind === 'Put' ? { after: input.Item as Json } : {}),
    });
    const condition = input.ConditionExpression;
    if (condition === undefined) return kind === 'ConditionCheck' ? undefined : passed();
    if (typeof condition !== 'string' || input.ExpressionAttributeValues !== undefined) return undefined;
    const test = /^\s*attribute_(not_)?exists\s*\(\s*([#\w]+)\s*\)\s*$/.exec(condition);
    if (!test) return undefined;
    const names = (input.ExpressionAttributeNames ?? {}) as Record<string, unknown>;
    const token = test[2]!;
    const attribute = token.startsWith('#') ? names[token] : token;
    const usesEveryName = Object.keys(names).length === (token.startsWith('#') ? 1 : 0);
    if (typeof attribute !== 'string' || !usesEveryName || !(attribute in action.key)) return undefined;
    const holds = test[1] ? !before : !!before;
    return holds
      ? passed()
      : {
          answer: {
            status: 400,
            body: {
              __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
              message: CONDITION_FAILED,
            },
          },
        };
  }

  /**
   * Evaluates one action against the copy of its item in the scratch table, where dynalite checks the condition and
   * computes the update: the answer, and the item as the action leaves it (undefined: deleted, or not written).
   */
  async function evaluate(scratch: string, action: Action): Promise<{ answer: Answer; after?: Json }> {
    const { input } = action;
    if (action.kind === 'Put') {
      const answer = await call('PutItem', { ...input, TableName: scratch });
      return { answer, after: input.Item as Json };
    }
    if (action.kind === 'Update') {
      const answer = await call('UpdateItem', { ...input, TableName: scratch, ReturnValues: 'ALL_NEW' });
      return { answer, after: answer.body.Attributes as Json | undefined };
    }
    if (action.kind === 'Delete') return { answer: await call('DeleteItem', { ...input, TableName: scratch }) };
    // A ConditionCheck is an update that changes nothing; its item is never written back.
    const answer = await call('UpdateItem', {
      TableName: scratch,
      Key: input.Key,
      ConditionExpression: input.ConditionExpression,
      ExpressionAttributeNames: input.ExpressionAttributeNames,
      ExpressionAttributeValues: input.ExpressionAttributeValues,
    });
    return { answer };
  }

  /**
   * Works out every action of a transaction: from the item's existence where that decides it, else on copies of its
   * item in the scratch table (then emptied again). One answer and resulting item per action, in order.
   */
  async function evaluateAll(
    actions: Action[],
    before: (Json | undefined)[],
  ): Promise<{ answer: Answer; after?: Json }[] | Answer> {
    const outcomes = actions.map((action, i) => knownOutcome(action, before[i]));
    const rest = actions.flatMap((action, i) => (outcomes[i] ? [] : [{ action, before: before[i] }]));
    const tables = [...new Set(rest.map(({ action }) => action.tableName))];
    const scratchOf = new Map<string, string>();
    for (const tableName of tables) {
      const scratch = await scratchTable(tableName);
      if (scratch instanceof Refused) return scratch.answer;
      scratchOf.set(tableName, scratch);
    }
    const ofTable = (tableName: string) => rest.filter(({ action }) => action.tableName === tableName);
    try {
      for (const tableName of tables) {
        const copies = ofTable(tableName).flatMap(({ before: image }) => (image ? [{ Item: image }] : []));
        const refused = await writeBatches(scratchOf.get(tableName)!, copies);
        if (refused) return refused;
      }
      const evaluated = await Promise.all(rest.map(({ action }) => evaluate(scratchOf.get(action.tableName)!, action)));
      let next = 0;
      return outcomes.map((known) => known ?? evaluated[next++]!);
    } finally {
      for (const tableName of tables) {
        await writeBatches(
          scratchOf.get(tableName)!,
          ofTable(tableName).map(({ action }) => ({ Key: action.key })),
        );
      }
    }
  }

  /**
   * Writes each item as its action left it (`after`; undefined: deleted) to the table itself, in batches: plain puts
   * and deletes, since the transaction holds every one of its items. ConditionChecks write nothing.
   */
  async function writeItems(actions: Action[], items: (Json | undefined)[]): Promise<Answer | undefined> {
    for (const tableName of new Set(actions.map((a) => a.tableName))) {
      const writes = actions.flatMap((action, i) =>
        action.tableName !== tableName || action.kind === 'ConditionCheck'
          ? []
          : [items[i] ? { Item: items[i]! } : { Key: action.key }],
      );
      const refused = await writeBatches(tableName, writes);
      if (refused) return refused;
    }
    return undefined;
  }

  /** Checks a transaction's items and names the item each one touches; a ValidationException answer when invalid. */
  async function actionsOf(
    items: unknown,
    kinds: readonly string[],
  ): Promise<{ kind: string; input: Json; tableName: string; key: Json }[] | Answer> {
    if (!Array.isArray(items) || items.length === 0) {
      return validation(
        "1 validation error detected: Value null at 'transactItems' failed to satisfy constraint: Member must not be null",
      );
    }
    if (items.length > MAX_TRANSACTION_ITEMS) {
      return validation(
        `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TRANSACTION_ITEMS}`,
      );
    }
    const actions: { kind: string; input: Json; tableName: string; key: Json }[] = [];
    const seen = new Set<string>();
    for (const item of items as unknown[]) {
      const present = kinds.filter((kind) => (item as Json | null)?.[kind] != null);
      if (present.length !== 1) {
        return validation(`TransactItems can only contain one of ${kinds.join(', ')}`);
      }
      const kind = present[0]!;
      const input = (item as Json)[kind] as Json;
      const tableName = input.TableName;
      const keyOrItem = (kind === 'Put' ? input.Item : input.Key) as Json | undefined;
      if (typeof tableName !== 'string' || !keyOrItem || typeof keyOrItem !== 'object') {
        return validation(`The ${kind} action needs a TableName and ${kind === 'Put' ? 'an Item' : 'a Key'}`);
      }
      const key = await keyOf(tableName, keyOrItem);
      if (key instanceof Refused) return key.answer;
      const identity = itemName(tableName, key);
      if (seen.has(identity)) return validation('Transaction request cannot include multiple operations on one item');
      seen.add(identity);
      actions.push({ kind, input, tableName, key });
    }
    return actions;
  }

  const cancellation = (actions: Action[], answers: Answer[], before: (Json | undefined)[]): Answer => {
    const reasons = answers.map((answer, i) => {
      if (answer.status === 200) return { Code: 'None' };
      const image = before[i];
      return {
        Code: 'ConditionalCheckFailed',
        Message: CONDITION_FAILED,
        ...(image && actions[i]!.input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' ? { Item: image } : {}),
      };
    });
    return {
      status: 400,
      body: {
        __type: `com.amazonaws.dynamodb.v20120810#TransactionCanceledException`,
        Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
        CancellationReasons: reasons,
      },
    };
  };

  async function transactWrite(request: Json): Promise<Answer> {
    const checked = await actionsOf(request.TransactItems, WRITE_KINDS);
    if (!Array.isArray(checked)) return checked;
    const actions = checked as Action[];
    const release = await locks.hold(actions.map((a) => ({ item: itemName(a.tableName, a.key), exclusive: true })));
    try {
      const images = await imagesOf(actions);
      if (images instanceof Refused) return images.answer;
      const before = images;
      // Every condition and update is worked out before anything is written, so a cancelled transaction writes
      // nothing anyone could read, even for a moment.
      const outcomes = await evaluateAll(actions, before);
      if (!Array.isArray(outcomes)) return outcomes;
      const answers = outcomes.map((outcome) => outcome.answer);
      if (answers.some((answer) => answer.status !== 200)) {
        const other = answers.find((answer) => answer.status !== 200 && !isConditionFailure(answer));
        return other ?? cancellation(actions, answers, before);
      }
      const refused = await writeItems(
        actions,
        outcomes.map((outcome) => outcome.after),
      );
      if (refused) {
        // The table refused what the transaction worked out (an item dynalite's validation refuses, or an index key of
        // the wrong type): every item is put back as it was.
        const undone = await writeItems(actions, before);
        if (undone) throw new Error(`could not undo a refused transaction's writes: ${JSON.stringify(undone.body)}`);
        return refused;
      }
      return { status: 200, body: {} };
    } finally {
      release();
    }
  }

  async function transactGet(request: Json): Promise<Answer> {
    const checked = await actionsOf(request.TransactItems, ['Get']);
    if (!Array.isArray(checked)) return checked;
    const release = await locks.hold(checked.map((a) => ({ item: itemName(a.tableName, a.key), exclusive: false })));
    try {
      const answers = await Promise.all(
        checked.map(({ input }) =>
          call('GetItem', {
            TableName: input.TableName,
            Key: input.Key,
            ProjectionExpression: input.ProjectionExpression,
            ExpressionAttributeNames: input.ExpressionAttributeNames,
            ConsistentRead: true,
          }),
        ),
      );
      const failed = answers.find((answer) => answer.status !== 200);
      if (failed) return failed;
      return {
        status: 200,
        body: { Responses: answers.map((answer) => (answer.body.Item ? { Item: answer.body.Item } : {})) },
      };
    } finally {
      release();
    }
  }

  /** A single write asking for the item on a failed condition: the write and the read that follows it, together. */
  async function writeReturningOld(operation: string, request: Json, lock: ItemLock[]): Promise<Answer> {
    const release = await locks.hold(lock);
    try {
      const answer = await call(operation, request);
      if (!isConditionFailure(answer) || typeof request.TableName !== 'string') return answer;
      const keyOrItem = (operation === 'PutItem' ? request.Item : request.Key) as Json | undefined;
      if (!keyOrItem) return answer;
      const key = await keyOf(request.TableName, keyOrItem);
      if (key instanceof Refused) return answer;
      const image = await imageOf(request.TableName, key);
      if (!image || image instanceof Refused) return answer;
      return { ...answer, body: { ...answer.body, Item: image } };
    } finally {
      release();
    }
  }

  /**
   * The items a single-item request or a batch write names, each locked as a transaction's items are: a GetItem
   * shares its item, a write holds it alone. Undefined when the request names no table this store knows (dynalite
   * answers it).
   */
  async function locksOf(operation: string, request: Json): Promise<ItemLock[] | undefined> {
    const named: { tableName: unknown; keyOrItem: unknown }[] = [];
    if (operation === 'BatchWriteItem') {
      for (const [tableName, writes] of Object.entries((request.RequestItems ?? {}) as Json)) {
        if (!Array.isArray(writes)) return undefined;
        for (const write of writes as Json[]) {
          const put = write?.PutRequest as Json | undefined;
          const remove = write?.DeleteRequest as Json | undefined;
          named.push({ tableName, keyOrItem: put ? put.Item : remove?.Key });
        }
      }
    } else {
      named.push({ tableName: request.TableName, keyOrItem: operation === 'PutItem' ? request.Item : request.Key });
    }
    const exclusive = operation !== 'GetItem';
    const held: ItemLock[] = [];
    for (const { tableName, keyOrItem } of named) {
      if (typeof tableName !== 'string' || !keyOrItem || typeof keyOrItem !== 'object') return undefined;
      const key = await keyOf(tableName, keyOrItem as Json);
      if (key instanceof Refused) return undefined;
      held.push({ item: itemName(tableName, key), exclusive });
    }
    return held;
  }

  function answerWith(res: ServerResponse, work: Promise<Answer>): void {
    work.then(
      (answer) => send(res, answer),
      (error: unknown) =>
        send(res, {
          status: 500,
          body: {
            __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
            message: error instanceof Error ? error.message : String(error),
          },
        }),
    );
  }

  return (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith(`${API}.`) ? target.slice(API.length + 1) : '';
    const ours = operation === 'TransactWriteItems' || operation === 'TransactGetItems';
    // Queries, scans and batch reads take no lock: DynamoDB gives them read-committed isolation, and a transaction
    // writes to the table only once it is sure to succeed.
    if (req.method !== 'POST' || (!ours && !ITEM_OPERATIONS.has(operation))) {
      dynalite(req, res);
      return;
    }
    void readBody(req)
      .then(
        async (body) => {
          let request: Json | undefined;
          try {
            request = JSON.parse(body.toString('utf8')) as Json;
          } catch {
            request = undefined;
          }
          if (!request && ours) {
            return send(res, { status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } });
          }
          if (request && operation === 'TransactWriteItems') return answerWith(res, transactWrite(request));
          if (request && operation === 'TransactGetItems') return answerWith(res, transactGet(request));
          const lock = request ? await locksOf(operation, request) : undefined;
          if (!lock) return replay(dynalite, req, body, res);
          if (request!.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && SINGLE_WRITES.has(operation)) {
            return answerWith(res, writeReturningOld(operation, request!, lock));
          }
          releaseOnAnswer(res, await locks.hold(lock));
          replay(dynalite, req, body, res);
        },
        () => {
          if (!res.headersSent) res.writeHead(400);
          res.end();
        },
      )
      .catch((error: unknown) => {
        if (res.headersSent) return void res.end();
        send(res, {
          status: 500,
          body: {
            __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
            message: error instanceof Error ? error.message : String(error),
          },
        });
      });
  };
}
