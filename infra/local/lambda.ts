import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalFunction } from './function-runtime.ts';

/** Runs of an asynchronous invocation: the first and Lambda's two retries (AWS Lambda Developer Guide). */
export const ASYNC_INVOKE_ATTEMPTS = 3;

/**
 * The Lambda Invoke API for the twin (`POST /2015-03-31/functions/{name}/invocations`, what @aws-sdk/client-lambda
 * sends): functions that call another function by name (the audit appender, docs/domain.md#audit-trail; the job
 * worker, docs/jobs.md) reach it here. An asynchronous invocation (`X-Amz-Invocation-Type: Event`) is answered 202 at
 * once and run afterwards, again after a failure up to ASYNC_INVOKE_ATTEMPTS runs, as Lambda does. Synchronous ones
 * answer as Lambda does: the result as the body, a function's own error as 200
 * with `X-Amz-Function-Error: Unhandled` and `{ errorType, errorMessage }`, an unknown name as
 * ResourceNotFoundException. The caller's grant (lambda:InvokeFunction on that ARN) is checked in the caller's SDK
 * client, as for every other service (grant-check.ts).
 */
export function createLambdaService(
  functions: ReadonlyMap<string, LocalFunction>,
  log: (line: string) => void = () => undefined,
) {
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(path.split('?')[0]!);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !match) {
      answer(404, { message: 'Unknown operation' }, { 'x-amzn-errortype': 'UnknownOperationException' });
      return;
    }
    const name = decodeURIComponent(match[1]!);
    // A name or an ARN: the function is the last part either way.
    const fn = functions.get(name.split(':').at(-1)!) ?? functions.get(name.replace(/^.*:function:/, ''));
    if (!fn) {
      answer(
        404,
        { Type: 'User', message: `Function not found: ${name}` },
        { 'x-amzn-errortype': 'ResourceNotFoundException' },
      );
      return;
    }
    let event: unknown;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      event = text ? JSON.parse(text) : {};
    } catch {
      answer(
        400,
        { message: 'Could not parse request body into json' },
        { 'x-amzn-errortype': 'InvalidRequestContentException' },
      );
      return;
    }
    const invocationType = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (invocationType === 'Event') {
      answer(202, null);
      void (async () => {
        for (let attempt = 1; attempt <= ASYNC_INVOKE_ATTEMPTS; attempt++) {
          try {
            await fn.invoke(event);
            return;
          } catch (error) {
            log(`${name}: asynchronous run ${attempt} failed (${error instanceof Error ? error.name : 'error'})`);
          }
        }
      })();
      return;
    }
    if (invocationType !== 'RequestResponse') {
      answer(
        400,
        { message: 'The twin invokes synchronously or asynchronously only' },
        { 'x-amzn-errortype': 'InvalidParameterValueException' },
      );
      return;
    }
    try {
      const result = await fn.invoke(event);
      answer(200, result ?? null, { 'x-amz-executed-version': '$LATEST' });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      answer(200, { errorType: failure.name, errorMessage: failure.message }, { 'x-amz-function-error': 'Unhandled' });
    }
  };
}
