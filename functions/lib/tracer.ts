import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Powertools for AWS Lambda's Tracer (docs/observability.md#traces): a subsegment per AWS SDK call of every client the
 * adapters build (functions/adapters/aws-clients.ts), under the segment Lambda's active tracing opens.
 *
 * Tracing turns itself off outside Lambda: Powertools enables it only where AWS_EXECUTION_ENV is set, which the
 * Lambda runtime sets and other hosts (the tests, the CLI, the DICOM listener's container) do not, so none of
 * them looks for an X-Ray daemon. POWERTOOLS_TRACE_ENABLED=false turns it off in Lambda too.
 *
 * Responses and errors are not recorded on the segments (POWERTOOLS_TRACER_CAPTURE_RESPONSE and
 * POWERTOOLS_TRACER_CAPTURE_ERROR are false in every function's environment, infra/function-declarations.ts): an
 * answer or an engine's error message may carry PHI.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'imaging-workspace' });
