import type { Context } from 'aws-lambda';
import { sendDailyNotifications } from '#shared/domain/notifications/daily.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The daily notifications job (docs/domain.md#notifications): run by its EventBridge schedule each morning; the
 * "next bill" notice and the digests are each sent once however often it runs. Logs carry counts only.
 */
export async function handler(
  _event?: unknown,
  context?: Context,
): Promise<{ hospitals: number; billNotices: number; digests: number }> {
  startInvocation(context);
  const started = performance.now();
  try {
    const result = await sendDailyNotifications(await getDeps());
    logger.info('daily notifications sent', { ...result, durationMs: Math.round(performance.now() - started) });
    return result;
  } catch (error) {
    logger.error('daily notifications failed', errorOrigin(error));
    throw error;
  }
}
