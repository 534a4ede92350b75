import type { Context } from 'aws-lambda';
import { sendMonthlyReports } from '#shared/domain/reports/monthly-report.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The monthly-report job (docs/domain.md#monthly-report): run by its EventBridge schedule on the first of each month.
 * A hospital's month is sent once however often it runs. Logs carry counts only.
 */
export async function handler(_event?: unknown, context?: Context): Promise<{ hospitals: number; sent: number }> {
  startInvocation(context);
  const started = performance.now();
  try {
    const result = await sendMonthlyReports(await getDeps());
    logger.info('monthly reports sent', { ...result, durationMs: Math.round(performance.now() - started) });
    return result;
  } catch (error) {
    logger.error('monthly reports failed', errorOrigin(error));
    throw error;
  }
}
