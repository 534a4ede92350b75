import type { Context } from 'aws-lambda';
import { writeDigests } from '#shared/domain/audit/digests.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The audit digest writer (docs/domain.md#signed-digests): run every hour by its EventBridge schedule, it signs a
 * digest for each hospital whose chain moved since its last digest and writes it to the Object Lock bucket. Logs carry
 * counts and hospital ids only.
 */
export async function handler(
  _event?: unknown,
  context?: Context,
): Promise<{ written: number; unchanged: number; failed: number }> {
  startInvocation(context);
  try {
    const deps = await getDeps();
    const report = await writeDigests(await deps.settings.listHospitalIds(), deps);
    if (report.failed.length > 0) logger.error('audit digests not written', { hospitalIds: report.failed.join(',') });
    logger.info('audit digests written', { written: report.written, unchanged: report.unchanged });
    return { written: report.written, unchanged: report.unchanged, failed: report.failed.length };
  } catch (error) {
    logger.error('audit digests failed', errorOrigin(error));
    throw error;
  }
}
