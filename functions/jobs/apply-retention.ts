import type { Context } from 'aws-lambda';
import { applyRetention } from '#shared/domain/settings/retention.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The data-retention job (docs/pipeline.md#data-retention): run by its EventBridge schedule. Logs carry counts and ids
 * only.
 */
export async function handler(
  _event?: unknown,
  context?: Context,
): Promise<{ deleted: number; skipped: number; held: number; purged: number; purgeMore: boolean }> {
  startInvocation(context);
  const started = performance.now();
  try {
    const report = await applyRetention(await getDeps());
    const counts = {
      deleted: report.deleted.length,
      skipped: report.skipped,
      held: report.held,
      purged: report.purged.length,
      purgeMore: report.purgeMore,
    };
    logger.info('retention done', { ...counts, durationMs: Math.round(performance.now() - started) });
    return counts;
  } catch (error) {
    logger.error('retention failed', errorOrigin(error));
    throw error;
  }
}
