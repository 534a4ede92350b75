import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { hospitalIsActive, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import { moveToRecycleBin, PROCESSING_STAGES, type DeleteDatasetDeps } from '#shared/domain/datasets/delete-dataset.ts';
import { purgeRecycleBin } from '#shared/domain/datasets/recycle-bin.ts';
import { DomainError } from '#shared/domain/errors.ts';
import { policyFor, type PolicyDeps } from './policies.ts';
import type { SettingsStore } from './ports.ts';

/** Actor of the audit events the retention job writes. */
export const RETENTION_ACTOR = { actorUserId: 'retention', actorName: 'Data retention' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 100;

export type RetentionDeps = DeleteDatasetDeps &
  PolicyDeps & {
    settings: Pick<SettingsStore, 'listHospitalIds'> & PolicyDeps['settings'];
    clock: Clock;
    directory: HospitalStatusReader;
  };

export type RetentionReport = {
  /** Moved to the recycle bin this run. */
  deleted: { hospitalId: string; datasetId: string }[];
  /** Expired but left for the next run: a stage is writing it, or it moved on meanwhile. */
  skipped: number;
  /** Expired but under legal hold: kept (docs/domain.md#legal-hold). */
  held: number;
  /** Removed for good from the recycle bin this run. */
  purged: { hospitalId: string; datasetId: string }[];
  /** A hospital's bin had more due than one run purges: the next run goes on. */
  purgeMore: boolean;
};

/**
 * The scheduled data-retention job (docs/pipeline.md#data-retention): every dataset older than the retention of the
 * policy in force for its team is moved to the recycle bin (docs/domain.md#recycle-bin), audited as
 * DATASET_RETENTION_EXPIRED with the reason 'retention'; then the bin's datasets past their 30 days are purged with
 * their objects (DATASET_PURGED). A dataset under legal hold is neither; one a pipeline stage is still writing is left
 * for the next run.
 */
export async function applyRetention(deps: RetentionDeps): Promise<RetentionReport> {
  const report: RetentionReport = { deleted: [], skipped: 0, held: 0, purged: [], purgeMore: false };
  const now = Date.parse(deps.clock.now());
  for (const hospitalId of await deps.settings.listHospitalIds()) {
    // A deactivated hospital's data stays as it was, so a restore brings it all back (docs/domain.md#deactivation).
    if (!(await hospitalIsActive(hospitalId, deps.directory))) continue;
    const retentionOf = new Map<string, number>();
    const retentionDays = async (teamId: string | null) => {
      const key = teamId ?? '';
      if (!retentionOf.has(key)) retentionOf.set(key, (await policyFor(hospitalId, teamId, deps)).dataRetentionDays);
      return retentionOf.get(key)!;
    };
    const expired: DatasetRecord[] = [];
    let startKey: Record<string, string> | undefined;
    do {
      const page = await deps.datasets.list({ hospitalId, limit: PAGE, startKey });
      for (const dataset of page.items) {
        const days = await retentionDays(dataset.teamId);
        if (now - Date.parse(dataset.createdAt) > days * DAY_MS) expired.push(dataset);
      }
      startKey = page.lastKey;
    } while (startKey);
    for (const dataset of expired) {
      if (dataset.legalHold) {
        report.held += 1;
        continue;
      }
      if (PROCESSING_STAGES.includes(dataset.status)) {
        report.skipped += 1;
        continue;
      }
      try {
        await moveToRecycleBin(dataset, RETENTION_ACTOR, 'DATASET_RETENTION_EXPIRED', 'retention', deps, {
          retentionDays: await retentionDays(dataset.teamId),
          createdAt: dataset.createdAt,
        });
        report.deleted.push({ hospitalId, datasetId: dataset.id });
      } catch (error) {
        // A dataset that moved on (a run started, another delete won, a hold placed) waits for the next run.
        if (!(error instanceof DomainError)) throw error;
        report.skipped += 1;
      }
    }
    const purge = await purgeRecycleBin(hospitalId, RETENTION_ACTOR, deps);
    report.purged.push(...purge.purged.map((datasetId) => ({ hospitalId, datasetId })));
    report.held += purge.held;
    report.skipped += purge.failed;
    report.purgeMore ||= purge.more;
  }
  return report;
}
