import '#infra/local/promise-with-resolvers.ts';
import { describe, expect, it } from 'vitest';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  FINISH_TASKS,
  SERIES_FAILURE_TASK,
  SERIES_MAP_STATE,
  SERIES_PLAN_PATH,
  SERIES_TASKS,
  substituteDefinition,
  taskArnVariable,
} from '#shared/definitions/state-machine.ts';

type State = Record<string, unknown> & { Type: string; Next?: string; End?: boolean };
const definition = buildPipelineDefinition() as { StartAt: string; States: Record<string, State> };
const map = definition.States[SERIES_MAP_STATE] as State & {
  ItemProcessor: { StartAt: string; States: Record<string, State> };
};

/** Runs the definition with stub handlers under the local executor the twin uses (aws-local-stepfunctions). */
async function runWithStubs(handlers: Record<string, (input: Record<string, unknown>) => Promise<unknown>>) {
  const { StateMachine } = await import('aws-local-stepfunctions');
  const substitutions = Object.fromEntries(
    ALL_PIPELINE_TASKS.map((t) => [
      taskArnVariable(t.state),
      `arn:aws:lambda:us-east-1:000000000000:function:${t.state}`,
    ]),
  );
  const passThrough = async (input: Record<string, unknown>) => input;
  const all = Object.fromEntries(ALL_PIPELINE_TASKS.map((t) => [t.state, handlers[t.state] ?? passThrough]));
  const machine = new StateMachine(substituteDefinition(definition, substitutions) as never, {
    validationOptions: { checkArn: true, checkPaths: true },
  });
  const execution = machine.run({ hospitalId: 'h1', datasetId: 'd1', runId: 'r1' } as never, {
    overrides: {
      taskResourceLocalHandlers: all as never,
      retryIntervalOverrides: Object.fromEntries(ALL_PIPELINE_TASKS.map((t) => [t.state, 0])),
    },
  });
  return execution.result;
}

describe('pipeline definition (shared/definitions/state-machine.ts)', () => {
  it('runs the series in a Map state whose concurrency comes from ListSeries, between the study stages', () => {
    expect(definition.States.ListSeries).toMatchObject({ ResultPath: SERIES_PLAN_PATH, Next: SERIES_MAP_STATE });
    expect(map).toMatchObject({
      Type: 'Map',
      ItemsPath: `${SERIES_PLAN_PATH}.seriesIds`,
      MaxConcurrencyPath: `${SERIES_PLAN_PATH}.maxConcurrency`,
      ItemSelector: { 'seriesId.$': '$$.Map.Item.Value', 'datasetId.$': '$.datasetId' },
      ResultPath: null,
      Next: FINISH_TASKS[0].state,
      Catch: [{ ErrorEquals: ['States.ALL'], Next: 'RecordFailure' }],
    });
    expect(map.MaxConcurrency).toBeUndefined();
    expect(map.ItemProcessor.StartAt).toBe(SERIES_TASKS[0].state);
    expect(Object.keys(map.ItemProcessor.States).sort()).toEqual(
      [...SERIES_TASKS.map((t) => t.state), SERIES_FAILURE_TASK.state].sort(),
    );
    // No series stage is also a state of the study: each name maps to one Lambda.
    for (const task of SERIES_TASKS) expect(definition.States[task.state]).toBeUndefined();
  });

  it("catches every series stage's failure into RecordSeriesFailure, which ends that branch alone", () => {
    for (const task of SERIES_TASKS) {
      expect(map.ItemProcessor.States[task.state]!.Catch).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: SERIES_FAILURE_TASK.state },
      ]);
    }
    expect(map.ItemProcessor.States[SERIES_FAILURE_TASK.state]).toMatchObject({ Type: 'Task', End: true });
    expect(map.ItemProcessor.States[SERIES_TASKS.at(-1)!.state]).toMatchObject({ End: true });
  });

  it('runs at most the plan’s concurrency of branches at once, and a failing series leaves the others to complete', async () => {
    // Prepare
    const seriesIds = ['s1', 's2', 's3', 's4', 's5'];
    let running = 0;
    let most = 0;
    const converted: string[] = [];
    const failures: Record<string, unknown>[] = [];
    const finished: string[] = [];

    // Act
    await runWithStubs({
      ListSeries: async () => ({ seriesIds, maxConcurrency: 2 }),
      ClassifySeries: async (input) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return input;
      },
      ConvertSeries: async (input) => {
        if (input.seriesId === 's3') {
          const error = new Error('series crash');
          error.name = 'TypeError';
          throw error;
        }
        converted.push(String(input.seriesId));
        return input;
      },
      RecordSeriesFailure: async (input) => {
        failures.push(input);
        return input;
      },
      BuildSurface: async (input) => {
        finished.push('BuildSurface');
        return input;
      },
      CompleteDataset: async (input) => {
        finished.push('CompleteDataset');
        return input;
      },
    });

    // Assess
    expect(most).toBe(2);
    expect(converted.sort()).toEqual(['s1', 's2', 's4', 's5']);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      hospitalId: 'h1',
      datasetId: 'd1',
      runId: 'r1',
      seriesId: 's3',
      error: { Error: 'TypeError' },
    });
    expect(finished).toEqual(['BuildSurface', 'CompleteDataset']);
  });
});
