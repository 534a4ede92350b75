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

export const ALL_PIPELINE_TASKS: readonly PipelineTask[] = [...PIPELINE_TASKS, FAILURE_TASK];

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
  PIPELINE_TASKS.forEach((task, i) => {
    const next = PIPELINE_TASKS[i + 1];
    states[task.state] = {
      Type: 'Task',
      Resource: `\${${taskArnVariable(task.state)}}`,
      ResultPath: null,
      TimeoutSeconds: task.timeoutSeconds,
      Retry: [{ ErrorEquals: [...TRANSIENT_ERRORS], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FAILURE_TASK.state }],
      ...(next ? { Next: next.state } : { End: true }),
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
    Next: 'PipelineFailed',
  };
  states.PipelineFailed = {
    Type: 'Fail',
    Error: 'DatasetPipelineFailed',
    Cause: 'A pipeline stage failed; the dataset is marked FAILED with the reason.',
  };
  return {
    Comment: 'Imaging Workspace dataset pipeline: de-identify, classify, convert, build assets, complete.',
    StartAt: PIPELINE_TASKS[0].state,
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
