/**
 * One Lambda instance of the twin, in a worker thread (started by function-runtime.ts): registers the grant check on
 * every SDK client the adapters build, imports the function's entry (its cold start), then runs one invocation at a
 * time with a Lambda-shaped context. process.env here is the function's own.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { setDeps } from '#functions/lib/deps.ts';
import type { GrantStatement } from '#infra/function-declarations.ts';
import { grantCheckMiddleware } from './grant-check.ts';

export type WorkerData = {
  entry: string;
  statements: GrantStatement[];
  region: string;
  account: string;
  functionName: string;
  memoryMb: number;
};
export type WorkerRequest = { type: 'invoke'; requestId: string; event: unknown; deadline: number };
type SerializedError = { name: string; message: string; stack?: string };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'init-error'; error: SerializedError }
  | { type: 'result'; requestId: string; value?: unknown; error?: SerializedError };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function serialize(error: unknown): SerializedError {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };
}

type HandlerModule = { handler?: unknown };

/** Set before `npm start` to shorten the 15-minute lock of a patient link (docs/local-twin.md#mail). */
export const SHARE_LOCK_ENV = 'IWS_SHARE_LOCK_SECONDS';

/**
 * The twin's own settings of a function's ports: with SHARE_LOCK_ENV set (the browser tests set it), the function's
 * ports are built here, as getDeps would, with that lock; otherwise getDeps builds them on first use, as in Lambda.
 */
async function installTwinPorts(): Promise<void> {
  const seconds = Number(process.env[SHARE_LOCK_ENV]);
  if (!Number.isInteger(seconds) || seconds <= 0) return;
  const deps = await (await import('#functions/adapters/index.ts')).createAwsDeps();
  setDeps({ ...deps, shareLimits: { ...deps.shareLimits, lockSeconds: seconds } });
}

/**
 * Serves invocations with the handler `load` gives: from the entry's source through tsx (this module run as the
 * thread's script), or from the function's bundle, which imports this module and its entry together (bundle.ts).
 */
export async function serveFunction(load: (data: WorkerData) => Promise<HandlerModule>): Promise<void> {
  const data = workerData as WorkerData;
  const port = parentPort!;
  const scope = { region: data.region, account: data.account, functionName: data.functionName };
  registerClientHook((client) =>
    client.middlewareStack.add(grantCheckMiddleware(data.statements, scope) as never, {
      step: 'initialize',
      name: 'localGrantCheck',
      priority: 'high',
    }),
  );
  let handler: (event: unknown, context: unknown) => Promise<unknown>;
  try {
    await installTwinPorts();
    const module = await load(data);
    if (typeof module.handler !== 'function') throw new Error(`${data.entry} does not export handler`);
    handler = module.handler as typeof handler;
  } catch (error) {
    port.postMessage({ type: 'init-error', error: serialize(error) } satisfies WorkerReply);
    return;
  }
  port.on('message', (request: WorkerRequest) => {
    const context = {
      functionName: data.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${data.region}:${data.account}:function:${data.functionName}`,
      memoryLimitInMB: String(data.memoryMb),
      awsRequestId: request.requestId,
      logGroupName: `/aws/lambda/${data.functionName}`,
      logStreamName: 'local',
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, request.deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    handler(request.event, context).then(
      (value) => port.postMessage({ type: 'result', requestId: request.requestId, value } satisfies WorkerReply),
      (error: unknown) =>
        port.postMessage({
          type: 'result',
          requestId: request.requestId,
          error: serialize(error),
        } satisfies WorkerReply),
    );
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

/** Set by a function's bundle before this module runs: the bundle serves its own entry. */
const BUNDLED = Symbol.for('imaging.local.bundledFunction');
if (!(globalThis as Record<symbol, unknown>)[BUNDLED])
  void serveFunction((data) => import(pathToFileURL(join(ROOT, data.entry)).href) as Promise<HandlerModule>);
