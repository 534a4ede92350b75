import type { Context } from 'aws-lambda';
import { applyRetention } from '#shared/domain/settings/retention.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The data-retention job (docs/pipeline.md#data-retention): run by its EventBridge schedule. Logs carry counts and ids
 * only.
 */
export async function handler(_event?: unknown, context?: Context): Promise<{ deleted: number; skipped: number }> {
  startInvocation(context);
  const started = performance.now();
  try {
    const report = await applyRetention(await getDeps());
    logger.info('retention done', {
      deleted: report.deleted.length,
      skipped: report.skipped,
      durationMs: Math.round(performance.now() - started),
    });
    return { deleted: report.deleted.length, skipped: report.skipped };
  } catch (error) {
    logger.error('retention failed', errorOrigin(error));
    throw error;
  }
}
