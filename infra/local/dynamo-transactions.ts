import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { ReadersWriterGate } from './readers-writer-gate.ts';

/**
 * What dynalite lacks and the cloud's code relies on, in front of dynalite's own request handler
 * (docs/local-twin.md#transactions):
 *
 * - TransactWriteItems and TransactGetItems, all or nothing as seen by every other caller. Every request passes a
 *   readers/writer gate: plain requests share it, a transaction holds it alone. Under it the transaction reads the
 *   current image of each of its items, applies each write through dynalite itself (so dynalite evaluates the
 *   condition and update expressions), and when a condition fails puts the saved images back and answers
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

/**
 * Wraps dynalite's request handler with transactions and ReturnValuesOnConditionCheckFailure. The returned handler
 * takes requests as dynalite's does (URL already stripped of the twin's /_aws/dynamodb prefix).
 */
export function withTransactions(dynalite: RequestHandler): RequestHandler {
  const gate = new ReadersWriterGate();
  const call = (operation: string, input: Json) => invoke(dynalite, operation, input);
  const keyNames = new Map<string, string[]>();

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

  /** The item as it stands (ConsistentRead), undefined when there is none. */
  async function imageOf(tableName: string, key: Json): Promise<Json | undefined | Refused> {
    const got = await call('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
    if (got.status !== 200) return new Refused(got);
    return got.body.Item as Json | undefined;
  }

  /** Puts an item back as it was before the transaction touched it (deleted, when there was none). */
  async function restore(action: Action, before: Json | undefined): Promise<void> {
    const answer = before
      ? await call('PutItem', { TableName: action.tableName, Item: before })
      : await call('DeleteItem', { TableName: action.tableName, Key: action.key });
    if (answer.status !== 200) {
      throw new Error(`could not undo a cancelled transaction's write: ${JSON.stringify(answer.body)}`);
    }
  }

  /** One write through dynalite; ConditionCheck is an UpdateItem with no update, its effect undone afterwards. */
  function apply(action: Action): Promise<Answer> {
    const { input } = action;
    if (action.kind === 'Put') return call('PutItem', input);
    if (action.kind === 'Update') return call('UpdateItem', input);
    if (action.kind === 'Delete') return call('DeleteItem', input);
    return call('UpdateItem', {
      TableName: input.TableName,
      Key: input.Key,
      ConditionExpression: input.ConditionExpression,
      ExpressionAttributeNames: input.ExpressionAttributeNames,
      ExpressionAttributeValues: input.ExpressionAttributeValues,
    });
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
      const identity = JSON.stringify([tableName, key]);
      if (seen.has(identity)) return validation('Transaction request cannot include multiple operations on one item');
      seen.add(identity);
      actions.push({ kind, input, tableName, key });
    }
    return actions;
  }

  async function transactWrite(request: Json): Promise<Answer> {
    const checked = await actionsOf(request.TransactItems, WRITE_KINDS);
    if (!Array.isArray(checked)) return checked;
    const actions = checked as Action[];
    return gate.run(true, async () => {
      const images = await Promise.all(actions.map((a) => imageOf(a.tableName, a.key)));
      const failedRead = images.find((image) => image instanceof Refused);
      if (failedRead) return failedRead.answer;
      const before = images as (Json | undefined)[];
      const answers = await Promise.all(actions.map(apply));
      const failed = answers.some((answer) => answer.status !== 200);
      // A cancelled transaction leaves nothing; a passed ConditionCheck leaves no key-only item where there was none.
      await Promise.all(
        actions.map((action, i) =>
          answers[i]!.status === 200 && (failed || (action.kind === 'ConditionCheck' && !before[i]))
            ? restore(action, before[i])
            : undefined,
        ),
      );
      if (!failed) return { status: 200, body: {} };
      const other = answers.find((answer) => answer.status !== 200 && !isConditionFailure(answer));
      if (other) return other;
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
    });
  }

  async function transactGet(request: Json): Promise<Answer> {
    const checked = await actionsOf(request.TransactItems, ['Get']);
    if (!Array.isArray(checked)) return checked;
    return gate.run(true, async () => {
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
    });
  }

  /** A single write asking for the item on a failed condition: the write and the read that follows it, alone. */
  async function writeReturningOld(operation: string, request: Json): Promise<Answer> {
    return gate.run(true, async () => {
      const answer = await call(operation, request);
      if (!isConditionFailure(answer) || typeof request.TableName !== 'string') return answer;
      const keyOrItem = (operation === 'PutItem' ? request.Item : request.Key) as Json | undefined;
      if (!keyOrItem) return answer;
      const key = await keyOf(request.TableName, keyOrItem);
      if (key instanceof Refused) return answer;
      const image = await imageOf(request.TableName, key);
      if (!image || image instanceof Refused) return answer;
      return { ...answer, body: { ...answer.body, Item: image } };
    });
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
    if (req.method !== 'POST' || (!ours && !SINGLE_WRITES.has(operation))) {
      void gate.shared().then((release) => {
        releaseOnAnswer(res, release);
        dynalite(req, res);
      });
      return;
    }
    void readBody(req).then(
      (body) => {
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
        if (request && request.ReturnValuesOnConditionCheckFailure === 'ALL_OLD') {
          return answerWith(res, writeReturningOld(operation, request));
        }
        // dynalite answers the rest itself, unparseable bodies and unknown shapes included.
        void gate.shared().then((release) => {
          releaseOnAnswer(res, release);
          replay(dynalite, req, body, res);
        });
      },
      () => {
        if (!res.headersSent) res.writeHead(400);
        res.end();
      },
    );
  };
}
