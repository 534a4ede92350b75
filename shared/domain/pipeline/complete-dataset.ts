import { meterRun } from '#shared/domain/usage/meter.ts';
import { meterDatasetStorage } from '#shared/domain/usage/storage-meter.ts';
import { notifyDatasetOutcome } from '#shared/domain/notifications/notifications.ts';
import { NoSeriesProcessedError } from '#shared/domain/errors.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import { failDataset } from './record-failure.ts';
import { enterStage, loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * PROCESSING → COMPLETE (conditional, audited), the run's compute and the dataset's storage metered, and the owner
 * is notified; a retry finds it COMPLETE and does nothing
 * (so a retry after the change but before the notification leaves the owner untold rather than told twice). A dataset
 * with series that failed in their own branch completes with the others, each failed series keeping its reason; one
 * whose every series failed is no result: it is FAILED with their reason, and NoSeriesProcessedError ends the run
 * failed (RecordFailure then finds it FAILED already).
 */
export async function completeDataset(input: StageInput, deps: PipelineDeps): Promise<void> {
  const before = await loadDataset(deps, input);
  if (before.status !== 'COMPLETE') {
    const series = await deps.datasets.listSeries(input.hospitalId, input.datasetId);
    if (series.length > 0 && series.every((s) => s.failureReason !== undefined)) {
      // The series' own reason when they share one (a one-series study reads as it did before series ran apart).
      const reasons = new Set(series.map((s) => s.failureReason!));
      const reason = reasons.size === 1 ? [...reasons][0]! : catalogueMessage('NO_SERIES_PROCESSED');
      await failDataset(input, deps, reason, 'NoSeriesProcessedError');
      throw new NoSeriesProcessedError();
    }
  }
  const after = await enterStage(deps, input, 'PROCESSING', 'COMPLETE');
  if (before.status !== 'COMPLETE') {
    const endedAt = after.completedAt ?? deps.clock.now();
    await meterRun(deps.organisation, after, endedAt);
    await meterDatasetStorage(deps, after, endedAt.slice(0, 10));
    await notifyDatasetOutcome(deps, after, 'COMPLETE');
  }
}
