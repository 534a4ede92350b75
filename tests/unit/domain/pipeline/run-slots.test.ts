import '#infra/local/promise-with-resolvers.ts';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { createRunSlotStore } from '#functions/adapters/dynamo/run-slots.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { createMemorySettingsStore } from '#functions/adapters/memory/index.ts';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  RUN_SLOT_TASKS,
  substituteDefinition,
  taskArnVariable,
} from '#shared/definitions/state-machine.ts';
import {
  acquireRunSlot,
  MAX_CONCURRENT_RUNS_PER_HOSPITAL,
  NO_RUN_SLOTS,
  releaseRunSlot,
  releaseSlot,
  RUN_SLOT_WAITER_TIMEOUT_MS,
  RunSlotsFullError,
  tryAcquire,
  type RunSlotDeps,
} from '#shared/domain/pipeline/run-slots.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 8, 0, seconds)).toISOString();

describe('run slots of a hospital (pure)', () => {
  it('gives at most `limit` slots; the others wait and get them first come, first served', () => {
    let slots = NO_RUN_SLOTS;
    const attempt = (runId: string, second: number) => {
      const step = tryAcquire(slots, runId, at(second), 2);
      slots = step.slots;
      return step.result;
    };
    expect(attempt('r1', 0)).toBe(true);
    expect(attempt('r2', 1)).toBe(true);
    expect(attempt('r3', 2)).toBe(false);
    expect(attempt('r4', 3)).toBe(false);
    // A retry of a holder (a re-run task) keeps its slot without taking another.
    expect(attempt('r1', 4)).toBe(true);
    expect(Object.keys(slots.holders)).toEqual(['r1', 'r2']);
    slots = releaseSlot(slots, 'r1');
    // r4 asks first after the release, but r3 was in line before it.
    expect(attempt('r4', 5)).toBe(false);
    expect(attempt('r3', 6)).toBe(true);
    expect(attempt('r4', 7)).toBe(false);
    slots = releaseSlot(slots, 'r2');
    expect(attempt('r4', 8)).toBe(true);
    expect(slots.waiting).toEqual([]);
  });

  it('lets a run that ends while waiting leave the line, and drops a waiter that stopped asking', () => {
    let slots = tryAcquire(NO_RUN_SLOTS, 'r1', at(0), 1).slots;
    slots = tryAcquire(slots, 'r2', at(1), 1).slots;
    slots = tryAcquire(slots, 'r3', at(2), 1).slots;
    expect(slots.waiting.map((w) => w.runId)).toEqual(['r2', 'r3']);
    slots = releaseSlot(slots, 'r2');
    expect(slots.waiting.map((w) => w.runId)).toEqual(['r3']);
    slots = releaseSlot(slots, 'r1');
    // r3 stopped asking long ago (its execution was stopped): r4 is not kept behind it.
    const later = new Date(Date.parse(at(2)) + RUN_SLOT_WAITER_TIMEOUT_MS + 1000).toISOString();
    expect(tryAcquire(slots, 'r4', later, 1).result).toBe(true);
  });
});

describe('run slots in the table', () => {
  let server: ReturnType<typeof dynalite>;
  let deps: RunSlotDeps;

  beforeAll(async () => {
    server = dynalite({ createTableMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const table: Table = { doc: createDocumentClient({ region: 'us-east-1', endpoint }), tableName: 'slots' };
    await table.doc.send(new CreateTableCommand(createTableInput('slots')));
    deps = {
      runSlots: createRunSlotStore(table),
      clock: { now: () => new Date().toISOString() },
      settings: createMemorySettingsStore(),
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs at most N datasets of one hospital at once, the rest in order, while another hospital is not held up', async () => {
    const N = MAX_CONCURRENT_RUNS_PER_HOSPITAL;
    let northInFlight = 0;
    let most = 0;
    const order: string[] = [];
    let northFull!: () => void;
    const whenNorthFull = new Promise<void>((resolve) => (northFull = resolve));
    let southDone!: () => void;
    const whenSouthDone = new Promise<void>((resolve) => (southDone = resolve));

    /** One execution of north: AcquireRunSlot retried while full (as the state machine does), work, release. */
    const north = async (runId: string, firstAttempt: Promise<unknown>) => {
      const input = { hospitalId: 'north', datasetId: `ds-${runId}`, runId };
      let attempt = firstAttempt;
      for (;;) {
        try {
          await attempt;
          break;
        } catch (error) {
          // The state machine retries both: a full house, and a slot item that lost too many races in a row.
          if ((error as Error).name !== 'TransientError') {
            expect(error).toBeInstanceOf(RunSlotsFullError);
            expect((error as Error).name).toBe('RunSlotsFull');
          }
          await new Promise((r) => setTimeout(r, 10));
          attempt = acquireRunSlot(input, deps);
        }
      }
      order.push(runId);
      most = Math.max(most, ++northInFlight);
      if (northInFlight === N) northFull();
      // The first runs hold their slots until south has had its run.
      await whenSouthDone;
      await new Promise((r) => setTimeout(r, 20));
      northInFlight--;
      // Retried on TransientError, as the state machine retries ReleaseRunSlot.
      for (;;) {
        try {
          await releaseRunSlot(input, deps);
          break;
        } catch (error) {
          expect((error as Error).name).toBe('TransientError');
        }
      }
    };

    // The datasets start one after the other (each first asks once the one before has asked), then all retry at once.
    const runs: Promise<void>[] = [];
    for (let i = 0; i <= N; i++) {
      const first = acquireRunSlot({ hospitalId: 'north', datasetId: `ds-n${i}`, runId: `n${i}` }, deps);
      await first.catch(() => undefined);
      runs.push(north(`n${i}`, first));
    }
    await whenNorthFull;
    // North is full and has a run waiting; south's first attempt gets a slot.
    const south = { hospitalId: 'south', datasetId: 'ds-s', runId: 's0' };
    await acquireRunSlot(south, deps);
    expect(northInFlight).toBe(N);
    expect(order).not.toContain(`n${N}`);
    await releaseRunSlot(south, deps);
    southDone();
    await Promise.all(runs);

    expect(most).toBe(N);
    expect(order).toEqual(Array.from({ length: N + 1 }, (_, i) => `n${i}`));
    // Everything given back: the next run of north starts at once.
    await acquireRunSlot({ hospitalId: 'north', datasetId: 'ds-x', runId: 'nx' }, deps);
  });
});

describe('the state machine around the run slot', () => {
  /** Runs the real definition with every task faked; returns the task states visited, in order. */
  async function visit(fail?: { state: string; times: number; name: string }) {
    const { StateMachine } = await import('aws-local-stepfunctions');
    const visited: string[] = [];
    let failures = 0;
    const handlers = Object.fromEntries(
      ALL_PIPELINE_TASKS.map((task) => [
        task.state,
        async (input: unknown) => {
          visited.push(task.state);
          if (fail?.state === task.state && failures < fail.times) {
            failures++;
            throw Object.assign(new Error('fake'), { name: fail.name });
          }
          // ListSeries's result is the Map state's plan: one series here.
          return task.state === 'ListSeries' ? { seriesIds: ['s1'], maxConcurrency: 1 } : input;
        },
      ]),
    );
    const definition = substituteDefinition(
      buildPipelineDefinition(),
      Object.fromEntries(
        ALL_PIPELINE_TASKS.map((t) => [
          taskArnVariable(t.state),
          `arn:aws:lambda:us-east-1:000000000000:function:${t.state}`,
        ]),
      ),
    );
    const execution = new StateMachine(definition as never, { validationOptions: { checkArn: true } }).run(
      { hospitalId: 'h1', datasetId: 'd1', runId: 'r1' } as never,
      {
        overrides: {
          taskResourceLocalHandlers: handlers as never,
          retryIntervalOverrides: Object.fromEntries(ALL_PIPELINE_TASKS.map((t) => [t.state, 0])),
        },
      },
    );
    const outcome = await execution.result.then(
      () => 'succeeded',
      // A Fail state ends the run with an ExecutionError whose cause carries the state's Error.
      (error: Error) => (error.cause instanceof Error ? error.cause.name : error.name),
    );
    return { visited, outcome };
  }

  it('takes the slot before the first stage and gives it back after the last', async () => {
    const { visited, outcome } = await visit();
    expect(outcome).toBe('succeeded');
    expect(visited[0]).toBe(RUN_SLOT_TASKS.acquire.state);
    expect(visited[1]).toBe('DeidentifyStudy');
    expect(visited.slice(-2)).toEqual(['CompleteDataset', RUN_SLOT_TASKS.release.state]);
  });

  it('waits while the hospital is full, then goes on', async () => {
    const { visited, outcome } = await visit({ state: 'AcquireRunSlot', times: 30, name: 'RunSlotsFull' });
    expect(outcome).toBe('succeeded');
    expect(visited.filter((s) => s === 'AcquireRunSlot')).toHaveLength(31);
    expect(visited).not.toContain('RecordFailure');
  });

  it('gives the slot back when a stage fails, and still fails the run', async () => {
    const { visited, outcome } = await visit({ state: 'BuildReport', times: 99, name: 'NoValidDicomError' });
    expect(outcome).toBe('DatasetPipelineFailed');
    expect(visited.slice(-3)).toEqual(['BuildReport', 'RecordFailure', RUN_SLOT_TASKS.release.state]);
  });
});
