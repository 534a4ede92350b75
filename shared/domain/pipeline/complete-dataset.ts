import { meterRun } from '#shared/domain/usage/meter.ts';
import { notifyDatasetOutcome } from '#shared/domain/notifications/notifications.ts';
import { enterStage, loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * PROCESSING → COMPLETE (conditional, audited), and the owner is notified; a retry finds it COMPLETE and does nothing
 * (so a retry after the change but before the notification leaves the owner untold rather than told twice).
 */
export async function completeDataset(input: StageInput, deps: PipelineDeps): Promise<void> {
  const before = await loadDataset(deps, input);
  const after = await enterStage(deps, input, 'PROCESSING', 'COMPLETE');
  if (before.status !== 'COMPLETE') {
    await meterRun(deps.organisation, after, after.completedAt ?? deps.clock.now());
    await notifyDatasetOutcome(deps, after, 'COMPLETE');
  }
}
