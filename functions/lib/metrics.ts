import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import { powertoolsLogger } from './logger.ts';

/**
 * Business metrics in CloudWatch embedded metric format (EMF), through Powertools for AWS Lambda's Metrics
 * (docs/observability.md#metrics): one namespace for the product, the `service` dimension from
 * POWERTOOLS_SERVICE_NAME (the function's domain). Each EMF line becomes a metric once the function's log group
 * receives it; no PutMetricData call and no grant.
 *
 * Dimensions and cardinality: every distinct set of dimension values is a metric of its own in CloudWatch (and
 * billed as one). Per-request figures (latency, errors) carry the service alone, never the hospital or the user:
 * API Gateway and Lambda already give those per function. The hospital is a dimension only on the handful of
 * business metrics listed in HOSPITAL_METRICS (one data point per dataset or invitation, a few hundred hospitals),
 * written as single metrics so their dimension never leaks onto the others.
 */
export const METRICS_NAMESPACE = 'ImagingWorkspace';

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'imaging-workspace',
  // Powertools' own warnings (an invalid dimension, say) go through the project's logger and its silencing.
  logger: powertoolsLogger,
});

/** Metrics that carry the hospital as a dimension (see above for why only these). */
export const HOSPITAL_METRICS = [
  'DatasetsCommitted',
  'DatasetsCompleted',
  'DatasetsFailed',
  'InvitationsSent',
  'SharesCreated',
] as const;
export type HospitalMetric = (typeof HOSPITAL_METRICS)[number];

/** Tests and benchmarks (IWS_SILENT_LOGS=1) print no EMF lines either. */
function silenced(): boolean {
  return process.env.IWS_SILENT_LOGS === '1';
}

/** A count with the service dimension only; flushed with the invocation (flushMetrics). */
export function count(name: string, value = 1): void {
  if (silenced()) return;
  metrics.addMetric(name, MetricUnit.Count, value);
}

/** A duration in milliseconds, with the service dimension and at most one low-cardinality dimension (a task's state). */
export function milliseconds(name: string, value: number, dimension?: { name: string; value: string }): void {
  if (silenced()) return;
  const metric = dimension ? metrics.singleMetric() : metrics;
  if (dimension) metric.addDimension(dimension.name, dimension.value);
  metric.addMetric(name, MetricUnit.Milliseconds, value);
}

/** One of the business metrics counted per hospital: written at once as a single metric with its own dimensions. */
export function countForHospital(name: HospitalMetric, hospitalId: string, value = 1): void {
  if (silenced()) return;
  const single = metrics.singleMetric();
  single.addDimension('hospitalId', hospitalId);
  single.addMetric(name, MetricUnit.Count, value);
}

/** Writes what the invocation stored. */
export function publishMetrics(): void {
  // Powertools warns on every flush without metrics, and most requests have none: flush only when there are some.
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/**
 * Flushes the invocation's metrics when the handler ends, answered or failed: the role of Powertools' logMetrics
 * middleware, without its warning on every request that stored none (most of them).
 */
export function flushMetrics<E, R>(): MiddlewareObj<E, R> {
  return { after: publishMetrics, onError: publishMetrics };
}
