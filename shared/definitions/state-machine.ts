/**
 * The dataset pipeline as Amazon States Language (JSONPath mode: the local executor ignores JSONata).
 * One definition feeds the CDK stack (infra/stacks/pipeline-stack.ts, with the task ARNs passed as
 * definitionSubstitutions) and every other executor of it, which maps each Task state to the same task handler by
 * state name (docs/architecture.md#shared-definitions). Change the pipeline here and all follow.
 *
 * Every task receives and returns the PipelineInput (a series' branch adds its seriesId; ListSeries returns the
 * SeriesPlan the Map state reads); each stage is idempotent, so a retry or a restart of the whole execution after a
 * crash repeats no work it must not repeat.
 */
export type PipelineTask = {
  /** Task state name (PascalCase verb phrase) and the key of its handler in functions/pipeline. */
  state: string;
  /** Entry file of the Lambda, relative to the repository root; exports `handler`. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
};

/** Per study, before the series: de-identify every file, then list the series and the concurrency to run them at. */
export const STUDY_TASKS = [
  { state: 'DeidentifyStudy', entry: 'functions/pipeline/deidentify-study.ts', memoryMb: 2048, timeoutSeconds: 900 },
  { state: 'ListSeries', entry: 'functions/pipeline/list-series.ts', memoryMb: 512, timeoutSeconds: 60 },
] as const satisfies readonly PipelineTask[];

/**
 * Per series, in a Map state over the study's series (at most the hospital's queue concurrency at once): each branch
 * classifies, converts and builds tracts for its own series, and a branch that fails records its series' reason
 * (RecordSeriesFailure) without stopping the others.
 */
export const SERIES_TASKS = [
  { state: 'ClassifySeries', entry: 'functions/pipeline/classify-series.ts', memoryMb: 1024, timeoutSeconds: 300 },
  { state: 'ConvertSeries', entry: 'functions/pipeline/convert-series.ts', memoryMb: 3008, timeoutSeconds: 900 },
  { state: 'BuildTracts', entry: 'functions/pipeline/build-tracts.ts', memoryMb: 4096, timeoutSeconds: 900 },
] as const satisfies readonly PipelineTask[];

/** Per study, once every series' branch has ended: the head surface (best anatomical volume), the report, COMPLETE. */
export const FINISH_TASKS = [
  { state: 'BuildSurface', entry: 'functions/pipeline/build-surface.ts', memoryMb: 3008, timeoutSeconds: 900 },
  { state: 'BuildReport', entry: 'functions/pipeline/build-report.ts', memoryMb: 1024, timeoutSeconds: 300 },
  { state: 'CompleteDataset', entry: 'functions/pipeline/complete-dataset.ts', memoryMb: 512, timeoutSeconds: 60 },
] as const satisfies readonly PipelineTask[];

/** Every stage in the order one series' dataset goes through them (`iws process` runs them so). */
export const PIPELINE_TASKS = [...STUDY_TASKS, ...SERIES_TASKS, ...FINISH_TASKS] as const;

/** A series' branch that failed: its reason is kept on the series and the branch ends; the other series go on. */
export const SERIES_FAILURE_TASK = {
  state: 'RecordSeriesFailure',
  entry: 'functions/pipeline/record-series-failure.ts',
  memoryMb: 512,
  timeoutSeconds: 60,
} as const satisfies PipelineTask;

/** The Map state over the study's series. */
export const SERIES_MAP_STATE = 'ProcessSeries';

export const FAILURE_TASK = {
  state: 'RecordFailure',
  entry: 'functions/pipeline/record-failure.ts',
  memoryMb: 512,
  timeoutSeconds: 60,
} as const satisfies PipelineTask;

/**
 * The hospital's run slot (shared/domain/pipeline/run-slots.ts): taken before the first stage, waited for with
 * back-off while the hospital is at its limit, given back after the last stage and after a failure alike.
 */
export const RUN_SLOT_TASKS = {
  acquire: {
    state: 'AcquireRunSlot',
    entry: 'functions/pipeline/acquire-run-slot.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
  },
  release: {
    state: 'ReleaseRunSlot',
    entry: 'functions/pipeline/release-run-slot.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
  },
} as const satisfies Record<string, PipelineTask>;

/** The error AcquireRunSlot throws while the hospital is full: retried, never a failure until the run times out. */
export const RUN_SLOTS_FULL_ERROR = 'RunSlotsFull';

export const ALL_PIPELINE_TASKS: readonly PipelineTask[] = [
  RUN_SLOT_TASKS.acquire,
  ...PIPELINE_TASKS,
  SERIES_FAILURE_TASK,
  FAILURE_TASK,
  RUN_SLOT_TASKS.release,
];

/** Errors worth retrying: Lambda service hiccups and what our adapters raise as TransientError. */
export const TRANSIENT_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
  'TransientError',
] as const;

/** Substitution variable for a task's Lambda ARN, e.g. ${DeidentifyStudyFunctionArn}. */
export function taskArnVariable(state: string): string {
  return `${state}FunctionArn`;
}

export const PIPELINE_TIMEOUT_SECONDS = 3 * 60 * 60;

/** Where ListSeries puts its result (SeriesPlan in shared/schemas/workflow.ts) for the Map state to read. */
export const SERIES_PLAN_PATH = '$.plan';

function taskState(task: PipelineTask): Record<string, unknown> {
  return {
    Type: 'Task',
    Resource: `\${${taskArnVariable(task.state)}}`,
    ResultPath: null,
    TimeoutSeconds: task.timeoutSeconds,
    Retry: [{ ErrorEquals: [...TRANSIENT_ERRORS], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
  };
}

/**
 * The series of the study in parallel, at most `plan.maxConcurrency` at once (the hospital's queue concurrency,
 * docs/pipeline.md#series-in-parallel). Each branch gets the run's ids and its series id; a stage that fails in a
 * branch (after its retries) goes to RecordSeriesFailure, which ends that branch alone. Only a failure of the Map
 * itself (RecordSeriesFailure failing too) fails the run.
 */
function seriesMapState(next: string, toFailure: unknown[]): Record<string, unknown> {
  const branch: Record<string, unknown> = {};
  const toSeriesFailure = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: SERIES_FAILURE_TASK.state }];
  SERIES_TASKS.forEach((task, i) => {
    const after = SERIES_TASKS[i + 1];
    branch[task.state] = {
      ...taskState(task),
      Catch: toSeriesFailure,
      ...(after ? { Next: after.state } : { End: true }),
    };
  });
  branch[SERIES_FAILURE_TASK.state] = {
    ...taskState(SERIES_FAILURE_TASK),
    Retry: [
      { ErrorEquals: [...TRANSIENT_ERRORS, 'States.TaskFailed'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 },
    ],
    End: true,
  };
  return {
    Type: 'Map',
    ItemsPath: `${SERIES_PLAN_PATH}.seriesIds`,
    MaxConcurrencyPath: `${SERIES_PLAN_PATH}.maxConcurrency`,
    ItemSelector: {
      'hospitalId.$': '$.hospitalId',
      'datasetId.$': '$.datasetId',
      'runId.$': '$.runId',
      'seriesId.$': '$$.Map.Item.Value',
    },
    ItemProcessor: {
      ProcessorConfig: { Mode: 'INLINE' },
      StartAt: SERIES_TASKS[0].state,
      States: branch,
    },
    ResultPath: null,
    Catch: toFailure,
    Next: next,
  };
}

/** The ASL document with `${<State>FunctionArn}` placeholders for definitionSubstitutions. */
export function buildPipelineDefinition(): Record<string, unknown> {
  const states: Record<string, unknown> = {};
  const { acquire, release } = RUN_SLOT_TASKS;
  states[acquire.state] = {
    Type: 'Task',
    Resource: `\${${taskArnVariable(acquire.state)}}`,
    ResultPath: null,
    TimeoutSeconds: acquire.timeoutSeconds,
    Retry: [
      // Waiting in line: about once a minute once backed off, until the run's own time limit.
      {
        ErrorEquals: [RUN_SLOTS_FULL_ERROR],
        IntervalSeconds: 5,
        BackoffRate: 1.5,
        MaxDelaySeconds: 60,
        MaxAttempts: 500,
      },
      { ErrorEquals: [...TRANSIENT_ERRORS], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 },
    ],
    Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FAILURE_TASK.state }],
    Next: STUDY_TASKS[0].state,
  };
  const toFailure = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FAILURE_TASK.state }];
  const studyStages = [...STUDY_TASKS, SERIES_MAP_STATE, ...FINISH_TASKS];
  studyStages.forEach((stage, i) => {
    const next = studyStages[i + 1];
    const nextState = next === undefined ? release.state : typeof next === 'string' ? next : next.state;
    if (typeof stage === 'string') {
      states[stage] = seriesMapState(nextState, toFailure);
      return;
    }
    states[stage.state] = {
      ...taskState(stage),
      // ListSeries hands the Map its items and concurrency; every other task passes its input on unchanged.
      ResultPath: stage.state === 'ListSeries' ? SERIES_PLAN_PATH : null,
      Catch: toFailure,
      Next: nextState,
    };
  });
  states[FAILURE_TASK.state] = {
    Type: 'Task',
    Resource: `\${${taskArnVariable(FAILURE_TASK.state)}}`,
    ResultPath: null,
    TimeoutSeconds: FAILURE_TASK.timeoutSeconds,
    Retry: [
      { ErrorEquals: [...TRANSIENT_ERRORS, 'States.TaskFailed'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 },
    ],
    Next: release.state,
  };
  states[release.state] = {
    Type: 'Task',
    Resource: `\${${taskArnVariable(release.state)}}`,
    ResultPath: null,
    TimeoutSeconds: release.timeoutSeconds,
    Retry: [
      { ErrorEquals: [...TRANSIENT_ERRORS, 'States.TaskFailed'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 },
    ],
    // A slot that cannot be given back expires on its own; the run's outcome stands.
    Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.releaseError', Next: 'RunFinished' }],
    Next: 'RunFinished',
  };
  states.RunFinished = {
    Type: 'Choice',
    Choices: [{ Variable: '$.error', IsPresent: true, Next: 'PipelineFailed' }],
    Default: 'PipelineSucceeded',
  };
  states.PipelineSucceeded = { Type: 'Succeed' };
  states.PipelineFailed = {
    Type: 'Fail',
    Error: 'DatasetPipelineFailed',
    Cause: 'A pipeline stage failed; the dataset is marked FAILED with the reason.',
  };
  return {
    Comment:
      'Imaging Workspace dataset pipeline: de-identify, each series in parallel (classify, convert, tracts), surface, report, complete.',
    StartAt: acquire.state,
    TimeoutSeconds: PIPELINE_TIMEOUT_SECONDS,
    States: states,
  };
}

/** Replaces `${Name}` placeholders as Step Functions' definitionSubstitutions does. */
export function substituteDefinition(
  definition: Record<string, unknown>,
  substitutions: Record<string, string>,
): Record<string, unknown> {
  const text = JSON.stringify(definition).replace(
    /\$\{(\w+)\}/g,
    (whole, name: string) => substitutions[name] ?? whole,
  );
  return JSON.parse(text) as Record<string, unknown>;
}
