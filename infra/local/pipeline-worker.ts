/**
 * The local state-machine executor, in its own process so CPU-heavy pipeline tasks never stall the twin's HTTP
 * server. It runs the SAME ASL (shared/pipeline/definition.ts) with aws-local-stepfunctions, every Task state mapped
 * by name to the same handler file the cloud's Lambda runs. Forked by sfn.ts; exits when the twin goes away.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  FAILURE_TASK,
  RUN_SLOT_TASKS,
  substituteDefinition,
  taskArnVariable,
} from '#shared/pipeline/definition.ts';

// aws-local-stepfunctions 3 targets Node 22: on Node 20 its Task timeouts need Promise.withResolvers.
const promiseStatics = Promise as unknown as { withResolvers?: unknown };
promiseStatics.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

export type WorkerRequest =
  | { type: 'run'; executionArn: string; name: string; input: string; startDate: number }
  | { type: 'abort'; executionArn: string }
  /** Runs only the failure task (the ASL's Catch target) for an execution the executor gives up on. */
  | { type: 'fail'; executionArn: string; input: string; error: string; cause: string };
export type WorkerReply =
  | { type: 'done'; executionArn: string; status: 'SUCCEEDED'; output: string }
  | { type: 'done'; executionArn: string; status: 'FAILED' | 'TIMED_OUT' | 'ABORTED'; error: string; cause: string };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REGION = process.env.AWS_REGION ?? 'us-east-1';
/** Retry back-off shortened locally: the ASL's 2 s/4 s/8 s becomes 200 ms each. */
const LOCAL_RETRY_INTERVAL_MS = 200;
const LOCAL_RUN_SLOT_WAIT_MS = 1000;

export function localTaskArn(state: string): string {
  return `arn:aws:lambda:${REGION}:000000000000:function:imaging-local-${state}`;
}

async function main(): Promise<void> {
  const { StateMachine, ExecutionError, ExecutionTimeoutError, ExecutionAbortedError } =
    await import('aws-local-stepfunctions');
  const definition = substituteDefinition(
    buildPipelineDefinition(),
    Object.fromEntries(ALL_PIPELINE_TASKS.map((task) => [taskArnVariable(task.state), localTaskArn(task.state)])),
  );
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true, checkPaths: true } });
  const handlers = Object.fromEntries(
    ALL_PIPELINE_TASKS.map((task) => [
      task.state,
      async (input: unknown): Promise<never> => {
        const module = (await import(pathToFileURL(join(ROOT, task.entry)).href)) as {
          handler: (event: unknown, context: unknown) => Promise<unknown>;
        };
        // Task outputs are JSON, as a Lambda's are.
        return (await module.handler(input, lambdaContext(task.state, task.timeoutSeconds))) as never;
      },
    ]),
  );
  // Waiting for a run slot keeps a pace that lets a running execution finish meanwhile.
  const retryIntervalOverrides = Object.fromEntries(
    ALL_PIPELINE_TASKS.map((task) => [
      task.state,
      task.state === RUN_SLOT_TASKS.acquire.state ? LOCAL_RUN_SLOT_WAIT_MS : LOCAL_RETRY_INTERVAL_MS,
    ]),
  );
  const running = new Map<string, { abort: () => void }>();

  process.on('message', (message: WorkerRequest) => {
    if (message.type === 'abort') {
      running.get(message.executionArn)?.abort();
      return;
    }
    if (message.type === 'fail') {
      const input = { ...(JSON.parse(message.input) as object), error: { Error: message.error, Cause: message.cause } };
      const done = (cause: string) =>
        process.send?.({
          type: 'done',
          executionArn: message.executionArn,
          status: 'FAILED',
          error: message.error,
          cause,
        } satisfies WorkerReply);
      handlers[FAILURE_TASK.state]!(input).then(
        () => done(message.cause),
        () => done(`${message.cause} Recording the failure failed too.`),
      );
      return;
    }
    const execution = machine.run(JSON.parse(message.input) as never, {
      overrides: { taskResourceLocalHandlers: handlers, retryIntervalOverrides },
      context: {
        Execution: {
          Id: message.executionArn,
          Name: message.name,
          Input: JSON.parse(message.input),
          StartTime: new Date(message.startDate).toISOString(),
        },
        StateMachine: { Id: process.env.STATE_MACHINE_ARN ?? '', Name: 'imaging-local-pipeline' },
      } as never,
      noThrowOnAbort: false,
    });
    running.set(message.executionArn, execution);
    const reply = (r: WorkerReply) => {
      running.delete(message.executionArn);
      process.send?.(r);
    };
    execution.result.then(
      (output: unknown) =>
        reply({
          type: 'done',
          executionArn: message.executionArn,
          status: 'SUCCEEDED',
          output: JSON.stringify(output ?? null),
        }),
      (error: unknown) => {
        const status =
          error instanceof ExecutionTimeoutError
            ? 'TIMED_OUT'
            : error instanceof ExecutionAbortedError
              ? 'ABORTED'
              : 'FAILED';
        const cause =
          error instanceof ExecutionError ? (error.cause as Error | undefined) : (error as Error | undefined);
        reply({
          type: 'done',
          executionArn: message.executionArn,
          status,
          error: cause?.name ?? 'States.Runtime',
          cause: cause?.message ?? String(error),
        });
      },
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready' });
}

function lambdaContext(state: string, timeoutSeconds: number) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    functionName: `imaging-local-${state}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: localTaskArn(state),
    memoryLimitInMB: '1024',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/imaging-local-${state}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

if (process.send) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `pipeline worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
