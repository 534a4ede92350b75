import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItem } from '@aws-lambda-powertools/logger';

/**
 * One structured logger: Powertools for AWS Lambda's Logger (docs/observability.md). Its JSON lines carry the
 * service (POWERTOOLS_SERVICE_NAME, the function's domain), the Lambda context (request id, function, cold start)
 * added by the middy chain, the correlation id (API Gateway's request id) and, for pipeline tasks, the Step Functions
 * run id.
 *
 * It takes our ids only (hospitalId, datasetId, runId, route): never events, bodies, DICOM values or error messages
 * from the engine, which could carry PHI. The exported `logger` only accepts a message and flat id fields, so nothing
 * else can be handed to it; the event logging of Powertools (POWERTOOLS_LOGGER_LOG_EVENT) is forced off where the
 * context is injected.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** Tests and benchmarks set IWS_SILENT_LOGS=1: read on each line, so a test may turn it off for one call. */
function silenced(): boolean {
  return process.env.IWS_SILENT_LOGS === '1';
}

class ProjectLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (silenced()) return;
    super.printLog(logLevel, log);
  }
}

/**
 * The Powertools instance, for the middy chain (injectLambdaContext), the Metrics and Tracer utilities' own warnings,
 * and the keys of an invocation (appendKeys). Log through `logger`.
 */
export const powertoolsLogger: Logger = new ProjectLogger({
  // The function's domain; outside Lambda (the DICOM listener, the CLI) the variable may be unset.
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'imaging-workspace',
});

export const logger = {
  info: (message: string, fields: LogFields = {}) => powertoolsLogger.info(message, fields),
  warn: (message: string, fields: LogFields = {}) => powertoolsLogger.warn(message, fields),
  error: (message: string, fields: LogFields = {}) => powertoolsLogger.error(message, fields),
};

/** Where an unexpected error came from (error name and first stack frame), without its message. */
export function errorOrigin(error: unknown): LogFields {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const frame = error.stack
    ?.split('\n')
    .find((line) => line.trim().startsWith('at '))
    ?.trim();
  return { errorName: error.name, errorAt: frame };
}

/**
 * Starts an invocation's lines outside the middy chain (pipeline tasks, jobs, triggers, the audit appender): the
 * previous invocation's keys dropped, the Lambda context (request id, function, cold start) and our ids added.
 */
export function startInvocation(context: { awsRequestId?: string } | undefined, keys: LogFields = {}): void {
  powertoolsLogger.resetKeys();
  if (context?.awsRequestId) powertoolsLogger.addContext(context as Parameters<Logger['addContext']>[0]);
  const defined = Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length > 0)
    powertoolsLogger.appendKeys(defined as Record<string, string | number | boolean>);
}
