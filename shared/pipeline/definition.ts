/**
 * The dataset pipeline as Amazon States Language (JSONPath mode: the local executor ignores JSONata).
 * One definition feeds both the CDK stack (infra/stacks/pipeline-stack.ts, with the task ARNs passed as
 * definitionSubstitutions) and the local twin's executor (infra/local), which maps each Task state to the
 * same task handler by state name. Change the pipeline here and both follow.
 *
 * Every task receives and returns the PipelineInput; each stage is idempotent, so a retry or a restart of
 * the whole execution after a crash repeats no work it must not repeat.
 */
export type PipelineTask = {
  /** Task state name (PascalCase verb phrase) and the key of its handler in functions/pipeline. */
  state: string;
  /** Entry file of the Lambda, relative to the repository root; exports `handler`. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
};

export const PIPELINE_TASKS = [
  { state: 'DeidentifyStudy', entry: 'functions/pipeline/deidentify-study.ts', memoryMb: 2048, timeoutSeconds: 900 },
  { state: 'ClassifySeries', entry: 'functions/pipeline/classify-series.ts', memoryMb: 1024, timeoutSeconds: 300 },
  { state: 'ConvertSeries', entry: 'functions/pipeline/convert-series.ts', memoryMb: 3008, timeoutSeconds: 900 },
  { state: 'BuildSurface', entry: 'functions/pipeline/build-surface.ts', memoryMb: 3008, timeoutSeconds: 900 },
  { state: 'BuildTracts', entry: 'functions/pipeline/build-tracts.ts', memoryMb: 4096, timeoutSeconds: 900 },
  { state: 'BuildReport', entry: 'functions/pipeline/build-report.ts', memoryMb: 1024, timeoutSeconds: 300 },
  { state: 'CompleteDataset', entry: 'functions/pipeline/complete-dataset.ts', memoryMb: 512, timeoutSeconds: 60 },
] as const satisfies readonly PipelineTask[];

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
    Next: PIPELINE_TASKS[0].state,
  };
  PIPELINE_TASKS.forEach((task, i) => {
    const next = PIPELINE_TASKS[i + 1];
    states[task.state] = {
      Type: 'Task',
      Resource: `\${${taskArnVariable(task.state)}}`,
      ResultPath: null,
      TimeoutSeconds: task.timeoutSeconds,
      Retry: [{ ErrorEquals: [...TRANSIENT_ERRORS], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FAILURE_TASK.state }],
      Next: next ? next.state : release.state,
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
    Comment: 'Imaging Workspace dataset pipeline: de-identify, classify, convert, build assets, complete.',
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
