import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDir, writeJson } from './data-dir.ts';
import { TWIN_RESOURCES_ENV, type TwinResources } from './function-runtime.ts';
import type { TaskTiming, WorkerReply, WorkerRequest } from './pipeline-worker.ts';

/**
 * Step Functions stand-in: the AWS JSON 1.0 API (StartExecution, DescribeExecution, StopExecution, ListExecutions)
 * at /_aws/sfn, so the handlers' SFNClient works unchanged. Executions are files under <data>/sfn; they run in the
 * pipeline worker process, a bounded number at a time. An execution still RUNNING when the twin stopped or crashed
 * is run again at the next start (every stage is idempotent).
 */
export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
export type ExecutionRecord = {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  status: ExecutionStatus;
  startDate: number;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  /** Runs the local executor started and lost to a crash of the twin or of its worker (a clean stop does not count). */
  attempts: number;
  /** Each task invocation of the run that ended it, timed by the executor (bench/twin-upload.ts prints them). */
  tasks?: TaskTiming[];
};

export type SfnService = {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Starts the worker and queues executions left RUNNING by a previous run. Call once the API and the stand-ins are up. */
  resume(): void;
  executions(): ExecutionRecord[];
  /** The worker process running executions now, if any (diagnostics and crash tests). */
  workerPid(): number | undefined;
  isHealthy(): boolean;
  close(): Promise<void>;
};

const MAX_ATTEMPTS = 3;
const require = createRequire(import.meta.url);
const WORKER = fileURLToPath(new URL('./pipeline-worker.ts', import.meta.url));

class SfnError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The pipeline worker's scheduling priority by default: the API's (nice 0). A lower one (PIPELINE_NICE, up to 19;
 * threads the worker starts later inherit it) lets requests go first on a small machine, but measured on a machine
 * shared with other jobs it doubled the CPU-heavy stages against `iws process` while the API's p99 was no better
 * (bench/RESULTS.md, bench:twin at nice 10 and nice 0). Where the system refuses, the worker runs as it is.
 */
export const PIPELINE_WORKER_NICE = 0;

/** The worker's niceness: `PIPELINE_NICE` when set to a whole number from 0 to 19, else PIPELINE_WORKER_NICE. */
export function pipelineWorkerNice(value = process.env.PIPELINE_NICE): number {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : PIPELINE_WORKER_NICE;
}

function lowerPriority(pid: number | undefined): void {
  const nice = pipelineWorkerNice();
  if (pid === undefined || nice === 0) return;
  try {
    setPriority(pid, nice);
  } catch {
    /* not permitted here: no change */
  }
}

function epochSeconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : ms / 1000;
}

function describe(record: ExecutionRecord) {
  return {
    executionArn: record.executionArn,
    stateMachineArn: record.stateMachineArn,
    name: record.name,
    status: record.status,
    startDate: epochSeconds(record.startDate),
    stopDate: epochSeconds(record.stopDate),
    input: record.input,
    output: record.output,
    error: record.error,
    cause: record.cause,
  };
}

export function startSfn(options: {
  dataDir: string;
  stateMachineArn: string;
  concurrency: number;
  /** What the task functions reach; read when the worker starts (the user pool exists by then). */
  resources: () => TwinResources;
  log: (line: string) => void;
}): SfnService {
  const dir = ensureDir(join(options.dataDir, 'sfn'));
  const records = new Map<string, ExecutionRecord>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    try {
      const record = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ExecutionRecord;
      records.set(record.executionArn, record);
    } catch {
      /* a half-written file from a crash: its tmp twin is ignored too */
    }
  }
  const executionPrefix = options.stateMachineArn.replace(':stateMachine:', ':execution:');
  const fileOf = (record: ExecutionRecord) => join(dir, `${encodeURIComponent(record.name)}.json`);
  const save = (record: ExecutionRecord) => writeJson(fileOf(record), record);

  const queue: string[] = [];
  const inFlight = new Set<string>();
  let worker: ChildProcess | undefined;
  let workerReady: Promise<ChildProcess> | undefined;
  let closing = false;
  let workerFailures = 0;

  function startWorker(): Promise<ChildProcess> {
    const child = fork(WORKER, [], {
      execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
      env: { ...process.env, [TWIN_RESOURCES_ENV]: JSON.stringify(options.resources()) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    worker = child;
    lowerPriority(child.pid);
    child.on('message', (message: WorkerReply | { type: 'ready' }) => {
      // A stop cuts the services under a running task: what it reports then is no verdict; the run resumes at the next start.
      if (message.type === 'done' && !closing) finish(message);
    });
    child.once('exit', (code, signal) => {
      if (worker === child) {
        worker = undefined;
        workerReady = undefined;
      }
      if (closing) return;
      // A crash (out of memory, a native fault) takes the in-flight executions with it: run them again.
      workerFailures++;
      options.log(`pipeline worker stopped (${signal ?? code}); restarting its executions`);
      for (const arn of [...inFlight]) {
        inFlight.delete(arn);
        const record = records.get(arn);
        if (record?.status === 'RUNNING') queue.unshift(arn);
      }
      setTimeout(pump, Math.min(5000, 200 * workerFailures));
    });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve(child));
      child.once('exit', () => reject(new Error('pipeline worker exited during start')));
    });
  }

  function finish(reply: WorkerReply): void {
    inFlight.delete(reply.executionArn);
    const record = records.get(reply.executionArn);
    if (record && record.status === 'RUNNING') {
      record.status = reply.status;
      record.stopDate = Date.now();
      if (reply.tasks) record.tasks = reply.tasks;
      if (reply.status === 'SUCCEEDED') record.output = reply.output;
      else {
        record.error = reply.error;
        record.cause = reply.cause;
      }
      save(record);
    }
    pump();
  }

  function pump(): void {
    if (closing) return;
    while (inFlight.size < options.concurrency && queue.length > 0) {
      const arn = queue.shift()!;
      const record = records.get(arn);
      if (!record || record.status !== 'RUNNING' || inFlight.has(arn)) continue;
      // An execution that took the worker down again and again is given up: only the failure task runs, so the
      // dataset ends FAILED with a reason (and can be retried) instead of staying in its stage.
      const giveUp = record.attempts >= MAX_ATTEMPTS;
      const request: WorkerRequest = giveUp
        ? {
            type: 'fail',
            executionArn: arn,
            input: record.input,
            error: 'States.Runtime',
            cause: `The local pipeline executor stopped ${record.attempts} times while running this execution.`,
          }
        : { type: 'run', executionArn: arn, name: record.name, input: record.input, startDate: record.startDate };
      if (!giveUp) record.attempts++;
      save(record);
      inFlight.add(arn);
      workerReady ??= startWorker();
      workerReady.then(
        (child) => child.send(request),
        () => {
          /* the exit handler re-queues it */
        },
      );
    }
  }

  function startExecution(body: { stateMachineArn?: string; name?: string; input?: string }) {
    if (body.stateMachineArn !== options.stateMachineArn) {
      throw new SfnError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
    }
    const name = body.name ?? randomUUID();
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(name)) throw new SfnError('InvalidName', `Invalid Name: '${name}'`);
    const input = body.input ?? '{}';
    try {
      JSON.parse(input);
    } catch {
      throw new SfnError('InvalidExecutionInput', 'Invalid execution input: not JSON');
    }
    const executionArn = `${executionPrefix}:${name}`;
    const existing = records.get(executionArn);
    if (existing) {
      // Same name and input while running is idempotent in Step Functions; anything else is a clash.
      if (existing.status === 'RUNNING' && existing.input === input)
        return { executionArn, startDate: epochSeconds(existing.startDate) };
      throw new SfnError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const record: ExecutionRecord = {
      executionArn,
      stateMachineArn: options.stateMachineArn,
      name,
      input,
      status: 'RUNNING',
      startDate: Date.now(),
      attempts: 0,
    };
    records.set(executionArn, record);
    save(record);
    queue.push(executionArn);
    pump();
    return { executionArn, startDate: epochSeconds(record.startDate) };
  }

  function operation(target: string, body: Record<string, unknown>): unknown {
    switch (target) {
      case 'StartExecution':
        return startExecution(body as never);
      case 'DescribeExecution': {
        const record = records.get(String(body.executionArn));
        if (!record)
          throw new SfnError('ExecutionDoesNotExist', `Execution Does Not Exist: '${String(body.executionArn)}'`);
        return describe(record);
      }
      case 'StopExecution': {
        const record = records.get(String(body.executionArn));
        if (!record)
          throw new SfnError('ExecutionDoesNotExist', `Execution Does Not Exist: '${String(body.executionArn)}'`);
        if (record.status === 'RUNNING') {
          Object.assign(record, { status: 'ABORTED', stopDate: Date.now(), error: body.error, cause: body.cause });
          save(record);
          worker?.send({ type: 'abort', executionArn: record.executionArn } satisfies WorkerRequest);
        }
        return { stopDate: epochSeconds(record.stopDate) };
      }
      case 'ListExecutions': {
        const executions = [...records.values()]
          .filter((r) => !body.statusFilter || r.status === body.statusFilter)
          .sort((a, b) => b.startDate - a.startDate)
          .map(({ executionArn, stateMachineArn, name, status, startDate, stopDate }) => ({
            executionArn,
            stateMachineArn,
            name,
            status,
            startDate: epochSeconds(startDate),
            stopDate: epochSeconds(stopDate),
          }));
        return { executions };
      }
      default:
        throw new SfnError('UnknownOperationException', `Operation ${target} is not available in the local twin`);
    }
  }

  return {
    handle(req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = String(req.headers['x-amz-target'] ?? '').replace(/^AWSStepFunctions\./, '');
        let status = 200;
        let payload: unknown;
        try {
          payload = operation(target, JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>);
        } catch (error) {
          status = 400;
          payload =
            error instanceof SfnError
              ? { __type: error.type, message: error.message }
              : { __type: 'InvalidArn', message: error instanceof Error ? error.message : String(error) };
        }
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(payload));
      });
    },
    resume() {
      const pending = [...records.values()]
        .filter((r) => r.status === 'RUNNING')
        .sort((a, b) => a.startDate - b.startDate);
      if (pending.length > 0) options.log(`resuming ${pending.length} pipeline execution(s) left running`);
      for (const record of pending) queue.push(record.executionArn);
      // The worker (and, one after another, its task functions) starts now rather than with the first run, so an
      // upload's run finds its tasks warm (docs/local-twin.md#pipeline-executor).
      if (!closing && !workerReady) {
        workerReady = startWorker();
        workerReady.catch(() => undefined);
      }
      pump();
    },
    executions: () => [...records.values()].map((r) => ({ ...r })),
    workerPid: () => worker?.pid,
    isHealthy: () => !closing && workerFailures < 10,
    async close() {
      closing = true;
      // A clean stop is no failure of the execution: it does not count towards giving up.
      for (const arn of inFlight) {
        const record = records.get(arn);
        if (record?.status === 'RUNNING' && record.attempts > 0) {
          record.attempts--;
          save(record);
        }
      }
      const child = worker;
      if (!child || child.exitCode !== null) return;
      // Executions still RUNNING stay so on disk and are resumed at the next start.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
