import { meterRun } from '#shared/domain/usage/meter.ts';
import { meterDatasetStorage } from '#shared/domain/usage/storage-meter.ts';
import { notifyDatasetOutcome } from '#shared/domain/notifications/notifications.ts';
import { enterStage, loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * PROCESSING → COMPLETE (conditional, audited), the run's compute and the dataset's storage metered, and the owner is
 * notified; a retry finds it COMPLETE and does nothing
 * (so a retry after the change but before the notification leaves the owner untold rather than told twice).
 */
export async function completeDataset(input: StageInput, deps: PipelineDeps): Promise<void> {
  const before = await loadDataset(deps, input);
  const after = await enterStage(deps, input, 'PROCESSING', 'COMPLETE');
  if (before.status !== 'COMPLETE') {
    const endedAt = after.completedAt ?? deps.clock.now();
    await meterRun(deps.organisation, after, endedAt);
    await meterDatasetStorage(deps, after, endedAt.slice(0, 10));
    await notifyDatasetOutcome(deps, after, 'COMPLETE');
  }
}
