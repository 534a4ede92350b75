import type { Context } from 'aws-lambda';
import { commitQuietStudies } from '#shared/domain/intake/commit-study.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { intakeCommitGuard } from '#functions/lib/idempotency.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * The intake sweep (docs/dicom-intake.md#commit): every study received over DICOMweb or C-STORE that has been quiet
 * for its integration's quiet time enters the pipeline. Run each minute by its EventBridge schedule. Logs carry counts
 * only.
 */
export async function handler(_event?: unknown, context?: Context): Promise<{ committed: number; waiting: number }> {
  startInvocation(context);
  try {
    const deps = await getDeps();
    // Each study's commit is one unit per dataset, shared with the explicit commit (functions/lib/idempotency.ts).
    const remainingMs = context ? () => context.getRemainingTimeInMillis() : undefined;
    const report = await commitQuietStudies(deps, intakeCommitGuard(deps.idempotency, remainingMs));
    if (report.committed > 0 || report.waiting > 0)
      logger.info('intake sweep done', { committed: report.committed, waiting: report.waiting });
    return report;
  } catch (error) {
    logger.error('intake sweep failed', errorOrigin(error));
    throw error;
  }
}
