/**
 * The local state-machine executor, in its own process so CPU-heavy pipeline tasks never stall the twin's HTTP
 * server. It runs the SAME ASL (shared/definitions/state-machine.ts) with aws-local-stepfunctions, every Task state mapped
 * by name to the same handler file the cloud's Lambda runs, each in its own Lambda-like thread (function-runtime.ts:
 * the task's environment, grants, memory size and timeout). Forked by sfn.ts; exits when the twin goes away.
 */
import './promise-with-resolvers.ts';
import { pipelineTaskDeclaration } from '#infra/function-declarations.ts';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  FAILURE_TASK,
  RUN_SLOT_TASKS,
  SERIES_FAILURE_TASK,
  substituteDefinition,
  taskArnVariable,
} from '#shared/definitions/state-machine.ts';
import { functionBundles } from './bundle.ts';
import { createLocalFunction, localFunctionSpec, TWIN_RESOURCES_ENV, type TwinResources } from './function-runtime.ts';

export type WorkerRequest =
  | { type: 'run'; executionArn: string; name: string; input: string; startDate: number }
  | { type: 'abort'; executionArn: string }
  /** Runs only the failure task (the ASL's Catch target) for an execution the executor gives up on. */
  | { type: 'fail'; executionArn: string; input: string; error: string; cause: string };
/** One task invocation of a run, as the executor timed it (benchmarks and diagnostics; never sent over the AWS API). */
export type TaskTiming = { state: string; seriesId?: string; startedAt: number; ms: number; ok: boolean };
export type WorkerReply = { tasks?: TaskTiming[] } & (
  | { type: 'done'; executionArn: string; status: 'SUCCEEDED'; output: string }
  | { type: 'done'; executionArn: string; status: 'FAILED' | 'TIMED_OUT' | 'ABORTED'; error: string; cause: string }
);

const REGION = process.env.AWS_REGION ?? 'us-east-1';
/** Retry back-off shortened locally: the ASL's 2 s/4 s/8 s becomes 200 ms each. */
const LOCAL_RETRY_INTERVAL_MS = 200;
const LOCAL_RUN_SLOT_WAIT_MS = 1000;
/**
 * A task's thread stays warm this long between calls (a Lambda container is kept for minutes too): a second upload
 * soon after the first pays no cold starts.
 */
const TASK_IDLE_MS = 10 * 60 * 1000;

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
  const resources = JSON.parse(process.env[TWIN_RESOURCES_ENV] ?? 'null') as TwinResources | null;
  if (!resources) throw new Error(`${TWIN_RESOURCES_ENV} is not set`);
  // From bundles, as the API's functions (docs/local-twin.md#api-threads): a task's cold start is then a fraction of
  // loading its sources, which matters for a run that starts while the tasks are still being started.
  const bundles = await functionBundles(ALL_PIPELINE_TASKS.map((task) => pipelineTaskDeclaration(task).entry));
  const functions = ALL_PIPELINE_TASKS.map((task) => {
    const declaration = pipelineTaskDeclaration(task);
    return {
      task,
      fn: createLocalFunction(localFunctionSpec(declaration, resources), {
        idleMs: TASK_IDLE_MS,
        bundle: bundles.get(declaration.entry),
      }),
    };
  });
  // Cold starts (a thread loading its handler) would otherwise fall between the states of the first run. The
  // functions are started one after another, in the order a successful run calls them and the failure tasks last,
  // so that starting them never competes
  // with the run for more than one core.
  const failureTasks = new Set<string>([FAILURE_TASK.state, SERIES_FAILURE_TASK.state]);
  const warmInOrder = async () => {
    const inRunOrder = [
      ...functions.filter(({ task }) => !failureTasks.has(task.state)),
      ...functions.filter(({ task }) => failureTasks.has(task.state)),
    ];
    for (const { fn } of inRunOrder) await fn.warm();
  };
  /** Task timings of the runs in flight, by runId (every task's input carries it). */
  const timings = new Map<string, TaskTiming[]>();
  // Task outputs are JSON, as a Lambda's are; a failure keeps its error type, which Retry and Catch match.
  const handlers = Object.fromEntries(
    functions.map(({ task, fn }) => [
      task.state,
      async (input: unknown): Promise<never> => {
        const { runId, seriesId } = (input ?? {}) as { runId?: string; seriesId?: string };
        const startedAt = Date.now();
        const started = performance.now();
        const record = (ok: boolean) =>
          timings.get(String(runId))?.push({
            state: task.state,
            ...(seriesId ? { seriesId } : {}),
            startedAt,
            ms: performance.now() - started,
            ok,
          });
        try {
          const output = (await fn.invoke(input)) as never;
          record(true);
          return output;
        } catch (error) {
          record(false);
          throw error;
        }
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
    const runId = String((JSON.parse(message.input) as { runId?: unknown }).runId);
    const tasks: TaskTiming[] = [];
    timings.set(runId, tasks);
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
      timings.delete(runId);
      process.send?.({ ...r, tasks });
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
  void warmInOrder();
}

if (process.send) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `pipeline worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
