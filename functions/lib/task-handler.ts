import type { Context } from 'aws-lambda';
import { PipelineInputSchema, type PipelineInput } from '#shared/schemas/workflow.ts';
import { DomainError, TransientError } from '#shared/domain/errors.ts';
import { meterTask } from '#shared/domain/usage/meter.ts';
import { getDeps, type ServerDeps } from './deps.ts';
import { errorOrigin, logger, startInvocation } from './logger.ts';
import { count, milliseconds, publishMetrics } from './metrics.ts';

const TRANSIENT_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'ServiceUnavailable',
  'InternalServerError',
  'InternalError',
  'RequestTimeout',
  'TimeoutError',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'TransactionConflictException',
]);

/** Service throttling, 5xx and network resets become TransientError, which the state machine retries. */
export function classifyTaskError(error: unknown): Error {
  if (error instanceof DomainError || error instanceof TransientError) return error;
  if (error instanceof Error) {
    const meta = (error as { $metadata?: { httpStatusCode?: number }; code?: string }).$metadata;
    const code = (error as { code?: string }).code;
    if (TRANSIENT_NAMES.has(error.name) || (code && TRANSIENT_NAMES.has(code)) || (meta?.httpStatusCode ?? 0) >= 500) {
      return new TransientError(`${error.name} from a service`);
    }
    return error;
  }
  return new Error('Unknown task failure');
}

/**
 * What leaves a task: the error's name (Retry/Catch match it) with our own words only. Lambda logs a thrown error's
 * message and stack, and Step Functions keeps them as the execution's Cause; an engine or SDK message may quote
 * DICOM values or object keys, so it never goes out. Stack frames (code locations) are kept.
 */
export function shieldTaskError(error: Error): Error {
  // Our own errors carry catalogue codes and fixed words; callers (and tests) may match them by class.
  if (error instanceof DomainError || error instanceof TransientError) return error;
  const message = `${error.name} in a pipeline task`;
  const shielded = new Error(message);
  shielded.name = error.name;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trim().startsWith('at '));
  shielded.stack = [`${error.name}: ${message}`, ...frames].join('\n');
  return shielded;
}

/**
 * Wraps a pipeline task: parses the PipelineInput (a definition change that breaks the payload fails here),
 * runs the core and returns the input unchanged (tasks use ResultPath null). Errors are rethrown with their
 * name so Step Functions Retry/Catch can match it, never with their text; logs carry ids only.
 */
export function taskHandler(
  state: string,
  fn: (input: PipelineInput, deps: ServerDeps) => Promise<void>,
): (input: PipelineInput, context?: Context) => Promise<PipelineInput> {
  return resultTaskHandler(state, async (input, deps) => {
    await fn(input, deps);
    return input;
  });
}

/** As taskHandler, for a task whose result the definition keeps (a ResultPath other than null). */
export function resultTaskHandler<R>(
  state: string,
  fn: (input: PipelineInput, deps: ServerDeps) => Promise<R>,
): (input: PipelineInput, context?: Context) => Promise<R> {
  return async (rawInput, context) => {
    const input = PipelineInputSchema.parse(rawInput);
    const ids = {
      state,
      hospitalId: input.hospitalId,
      datasetId: input.datasetId,
      runId: input.runId,
      ...(input.seriesId ? { seriesId: input.seriesId } : {}),
    };
    // Every line of this invocation carries the Lambda context (request id, cold start) and the run's ids: the run id
    // names the Step Functions execution (`<datasetId>-<runId>`), so a line leads to its execution and back.
    startInvocation(context, { ...ids, correlation_id: input.runId });
    const started = performance.now();
    const deps = await getDeps();
    try {
      const result = await fn(input, deps);
      logger.info('task done', { durationMs: Math.round(performance.now() - started) });
      return result;
    } catch (error) {
      const classified = classifyTaskError(error);
      logger.error('task failed', errorOrigin(classified));
      count('PipelineTasksFailed');
      throw shieldTaskError(classified);
    } finally {
      // The stage is a dimension (a dozen values); the hospital and the dataset are not (docs/observability.md#metrics).
      milliseconds('PipelineTaskDuration', performance.now() - started, { name: 'state', value: state });
      await meterTaskTime(deps, input, (performance.now() - started) / 1000);
      publishMetrics();
    }
  };
}

/**
 * The task's run time at the function's memory size on the usage meters (docs/domain.md#usage-and-billing), failed
 * tasks included: they cost the time too. Metering never fails the task.
 */
async function meterTaskTime(deps: ServerDeps, input: PipelineInput, seconds: number) {
  const memoryMb = Number(process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (!(memoryMb > 0)) return;
  try {
    await meterTask(deps, {
      hospitalId: input.hospitalId,
      datasetId: input.datasetId,
      seconds,
      memoryMb,
      endedAt: deps.clock.now(),
    });
  } catch (error) {
    logger.error('task time not metered', errorOrigin(error));
  }
}
