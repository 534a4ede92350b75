import type { Context } from 'aws-lambda';
import { startRetentionJobs, type RetentionSchedule } from '#shared/domain/settings/retention.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/** The schedule's time: EventBridge's scheduled event carries it as `time` (the clock's time when an event has none). */
function scheduledAt(event: unknown): string | undefined {
  const time = (event as { time?: unknown } | null | undefined)?.time;
  return typeof time === 'string' && !Number.isNaN(Date.parse(time)) ? new Date(time).toISOString() : undefined;
}

/**
 * The data-retention schedule (docs/pipeline.md#data-retention), run by its EventBridge rule: starts one RETENTION
 * job per active hospital, once a day (docs/jobs.md); the job worker does the work. Logs carry counts only.
 */
export async function handler(
  event?: unknown,
  context?: Context,
): Promise<{ started: number; existing: number; inactive: number }> {
  startInvocation(context);
  try {
    const report: RetentionSchedule = await startRetentionJobs(await getDeps(), scheduledAt(event));
    const counts = { started: report.started.length, existing: report.existing, inactive: report.inactive };
    logger.info('retention jobs started', counts);
    return counts;
  } catch (error) {
    logger.error('retention schedule failed', errorOrigin(error));
    throw error;
  }
}
