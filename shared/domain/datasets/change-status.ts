import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { movePipelineCounters } from '#shared/domain/dashboards/counters.ts';
import { moveReportCounts, statusChangeCounts } from '#shared/domain/reports/counters.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import type { DatasetRecord, DatasetRepository } from './ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';

/**
 * Legal moves of the pipeline: forward one stage, FAILED from any active stage, retry FAILED → UPLOADING, and
 * COMPLETE → UPLOADING when a released series is processed again.
 */
export const ALLOWED_TRANSITIONS: Record<DatasetStatus, readonly DatasetStatus[]> = {
  CREATED: ['UPLOADING'],
  UPLOADING: ['ANONYMIZING', 'FAILED'],
  ANONYMIZING: ['CLASSIFYING', 'FAILED'],
  CLASSIFYING: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETE', 'FAILED'],
  COMPLETE: ['UPLOADING'],
  FAILED: ['UPLOADING'],
};

/**
 * A status change: one conditional write (the status must still be one of `from`) with its audit event, in one
 * transaction where the store has them. The condition makes concurrent or replayed transitions fail loudly
 * instead of skipping a stage.
 */
export async function changeStatus(
  deps: { datasets: DatasetRepository; audit: AuditLog; organisation?: OrganisationCounters },
  change: {
    hospitalId: string;
    datasetId: string;
    from: readonly DatasetStatus[];
    to: DatasetStatus;
    actorUserId: string;
    actorName: string;
    fields?: Partial<DatasetRecord>;
    details?: Record<string, unknown>;
  },
): Promise<DatasetRecord> {
  const illegal = change.from.filter((from) => !ALLOWED_TRANSITIONS[from].includes(change.to));
  if (illegal.length > 0) throw new Error(`Illegal transition ${illegal.join('|')} → ${change.to}`);
  const updated = await deps.datasets.transition(
    change.hospitalId,
    change.datasetId,
    change.from,
    change.to,
    change.fields,
    {
      hospitalId: change.hospitalId,
      datasetId: change.datasetId,
      action: 'STATUS_CHANGED',
      actorUserId: change.actorUserId,
      actorName: change.actorName,
      details: { from: change.from.length === 1 ? change.from[0] : change.from, to: change.to, ...change.details },
    },
  );
  // The dashboards' per-status counters move with the status (docs/domain.md#counters); every caller names one `from`.
  // The report counters of the dataset's creation month move with it too (docs/domain.md#report-counters).
  if (deps.organisation && change.from.length === 1) {
    await movePipelineCounters(deps.organisation, updated, change.from[0], change.to);
    await moveReportCounts(deps.organisation, updated, statusChangeCounts(updated, change.from[0]!, change.to));
  }
  return updated;
}
