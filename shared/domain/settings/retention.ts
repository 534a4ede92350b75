import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { hospitalIsActive, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import { PROCESSING_STAGES, removeDataset, type DeleteDatasetDeps } from '#shared/domain/datasets/delete-dataset.ts';
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

export type RetentionReport = { deleted: { hospitalId: string; datasetId: string }[]; skipped: number };

/**
 * The scheduled data-retention job (docs/pipeline.md#data-retention): every dataset older than the retention of the
 * policy in force for its team is deleted with its objects, and audited as DATASET_RETENTION_EXPIRED. A dataset a
 * pipeline stage is still writing is left for the next run.
 */
export async function applyRetention(deps: RetentionDeps): Promise<RetentionReport> {
  const report: RetentionReport = { deleted: [], skipped: 0 };
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
      if (PROCESSING_STAGES.includes(dataset.status)) {
        report.skipped += 1;
        continue;
      }
      try {
        await removeDataset(dataset, RETENTION_ACTOR, 'DATASET_RETENTION_EXPIRED', deps, {
          retentionDays: await retentionDays(dataset.teamId),
          createdAt: dataset.createdAt,
        });
        report.deleted.push({ hospitalId, datasetId: dataset.id });
      } catch (error) {
        // A dataset that moved on (a run started, another delete won) waits for the next run.
        if (!(error instanceof DomainError)) throw error;
        report.skipped += 1;
      }
    }
  }
  return report;
}
