import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { hospitalIsActive, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import { moveToRecycleBin, purgeDataset, type DeleteDatasetDeps } from '#shared/domain/datasets/delete-dataset.ts';
import { DomainError } from '#shared/domain/errors.ts';
import {
  startJobOnce,
  type JobItemResult,
  type JobKindHandler,
  type JobRunnerDeps,
  type JobStartDeps,
  type JobWorkItem,
} from '#shared/domain/jobs/runner.ts';
import type { JobRef } from '#shared/domain/jobs/ports.ts';
import { settleStatus } from '#shared/domain/shares/patient-shares.ts';
import type { ShareStore } from '#shared/domain/shares/ports.ts';
import { policyFor, type PolicyDeps } from './policies.ts';
import type { SettingsStore } from './ports.ts';

/** Actor of the audit events the retention job writes, and the author of its jobs. */
export const RETENTION_ACTOR = { actorUserId: 'retention', actorName: 'Data retention' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Datasets one chunk of a retention job reads from the hospital's list (expiry) or its recycle bin (purge): a chunk
 * moves or purges at most this many.
 */
export const RETENTION_PAGE = 25;

/** The id of a hospital's retention job of one UTC day: the claim that keeps a second run of the day from starting one. */
export const retentionJobId = (at: string): string => `retention-${at.slice(0, 10)}`;

export type RetentionScheduleDeps = Omit<JobStartDeps, 'ids'> & {
  settings: Pick<SettingsStore, 'listHospitalIds'>;
  directory: HospitalStatusReader;
};

export type RetentionSchedule = {
  /** Jobs created by this run. */
  started: JobRef[];
  /** Hospitals whose job of the day existed already (a second run of the schedule, or its retry). */
  existing: number;
  /** Deactivated hospitals: no job, their data stays as it was (docs/domain.md#deactivation). */
  inactive: number;
};

/**
 * The daily data-retention schedule (docs/pipeline.md#data-retention): one RETENTION job per active hospital, its id
 * named by the schedule's day (`scheduledAt`, the EventBridge event's time; the clock's when absent), each under its
 * own hospital so its admins may follow it (docs/jobs.md). A run of the same day finds the jobs and starts none.
 */
export async function startRetentionJobs(
  deps: RetentionScheduleDeps,
  scheduledAt?: string,
): Promise<RetentionSchedule> {
  const asOf = deps.clock.now();
  const id = retentionJobId(scheduledAt ?? asOf);
  const report: RetentionSchedule = { started: [], existing: 0, inactive: 0 };
  for (const hospitalId of await deps.settings.listHospitalIds()) {
    if (!(await hospitalIsActive(hospitalId, deps.directory))) {
      report.inactive += 1;
      continue;
    }
    const { created } = await startJobOnce(
      {
        id,
        kind: 'RETENTION',
        ownerHospitalId: hospitalId,
        hospitalId,
        input: { asOf },
        total: null,
        createdBy: { userId: RETENTION_ACTOR.actorUserId, name: RETENTION_ACTOR.actorName },
      },
      deps,
    );
    if (created) report.started.push({ ownerHospitalId: hospitalId, jobId: id });
    else report.existing += 1;
  }
  return report;
}

export type RetentionDeps = DeleteDatasetDeps &
  PolicyDeps &
  JobRunnerDeps & {
    clock: Clock;
    directory: HospitalStatusReader;
    shares: ShareStore;
  };

/**
 * One item a chunk found: a dataset moved to the bin (expired, with the retention that applied) or purged from it, or a
 * patient share stored ACTIVE past its expiry, whose EXPIRED status is stored.
 */
type RetentionItem =
  | { id: string; action: 'bin'; days: number }
  | { id: string; action: 'purge' }
  | { id: string; action: 'expire-share'; datasetId: string };

/**
 * Where a retention job goes on: the phase (the hospital's datasets, then its bin's due entries, then its patient
 * shares past their expiry, then the last entries found), the list's key after the page last read, and the datasets that page found, which the next chunk
 * acts on. Keeping them in the cursor makes a chunk run again act on the same datasets, though the ones it moved or
 * purged have left the lists.
 */
type RetentionCursor = {
  phase: 'expire' | 'purge' | 'shares' | 'done';
  key: Record<string, string> | null;
  pending: RetentionItem[];
};

const START: RetentionCursor = { phase: 'expire', key: null, pending: [] };

/** The datasets of a page of the live list older than the retention of the policy in force for their team. */
async function expiredOf(
  hospitalId: string,
  page: DatasetRecord[],
  asOf: number,
  deps: PolicyDeps,
): Promise<RetentionItem[]> {
  const retentionOf = new Map<string, Promise<number>>();
  const expired: RetentionItem[] = [];
  for (const dataset of page) {
    const team = dataset.teamId ?? '';
    if (!retentionOf.has(team))
      retentionOf.set(
        team,
        policyFor(hospitalId, dataset.teamId, deps).then((p) => p.dataRetentionDays),
      );
    const days = await retentionOf.get(team)!;
    if (asOf - Date.parse(dataset.createdAt) > days * DAY_MS) expired.push({ id: dataset.id, action: 'bin', days });
  }
  return expired;
}

/** A dataset already in the bin by this job's hand (a chunk run again): reported as the first run did. */
const binnedByThisJob = (dataset: DatasetRecord | undefined, asOf: string) =>
  dataset?.deletedByUserId === RETENTION_ACTOR.actorUserId && (dataset.deletedAt ?? '') >= asOf;

async function moveExpired(
  hospitalId: string,
  item: Extract<RetentionItem, { action: 'bin' }>,
  asOf: string,
  deps: RetentionDeps,
): Promise<JobItemResult> {
  const dataset = await deps.datasets.get(hospitalId, item.id);
  if (!dataset) {
    return binnedByThisJob(await deps.datasets.getInBin(hospitalId, item.id), asOf)
      ? { outcome: 'SUCCEEDED', ref: 'recycle-bin' }
      : { outcome: 'SKIPPED' };
  }
  if (dataset.legalHold) return { outcome: 'SKIPPED', code: 'LEGAL_HOLD' };
  try {
    await moveToRecycleBin(dataset, RETENTION_ACTOR, 'DATASET_RETENTION_EXPIRED', 'retention', deps, {
      retentionDays: item.days,
      createdAt: dataset.createdAt,
    });
    return { outcome: 'SUCCEEDED', ref: 'recycle-bin' };
  } catch (error) {
    // A stage is writing it, or it moved on meanwhile (a run started, a hold placed): the next day's job looks again.
    if (error instanceof DomainError) return { outcome: 'SKIPPED', code: error.code };
    throw error;
  }
}

async function purgeDue(hospitalId: string, item: RetentionItem, deps: RetentionDeps): Promise<JobItemResult> {
  const dataset = await deps.datasets.getInBin(hospitalId, item.id);
  if (!dataset) {
    // Gone from the bin: purged (by this job's run cut off after it, a chunk run again), or restored to the lists.
    return (await deps.datasets.get(hospitalId, item.id))
      ? { outcome: 'SKIPPED' }
      : { outcome: 'SUCCEEDED', ref: 'purged' };
  }
  if (dataset.legalHold) return { outcome: 'SKIPPED', code: 'LEGAL_HOLD' };
  // A purge that fails is that item's failure (FAILED with its code); the next day's job finds it in the bin again.
  await purgeDataset(dataset, RETENTION_ACTOR, deps, { reason: dataset.deletionReason });
  return { outcome: 'SUCCEEDED', ref: 'purged' };
}

/**
 * Stores EXPIRED on a link past its expiry, as its next open would (moving the hospital's share counters and taking it
 * out of the by-expiry index); a share revoked or used up meanwhile is left as it is.
 */
async function expireShare(
  hospitalId: string,
  item: Extract<RetentionItem, { action: 'expire-share' }>,
  deps: RetentionDeps,
): Promise<JobItemResult> {
  const share = await deps.shares.getPatientShare(hospitalId, item.datasetId, item.id);
  // Stored expired already (by this job's chunk run again, or an open after its expiry): the same outcome, once counted.
  if (share?.status === 'EXPIRED') return { outcome: 'SUCCEEDED', ref: 'expired' };
  if (share?.status !== 'ACTIVE') return { outcome: 'SKIPPED' };
  const settled = await settleStatus(share, deps);
  return settled.status === 'EXPIRED' ? { outcome: 'SUCCEEDED', ref: 'expired' } : { outcome: 'SKIPPED' };
}

/**
 * The RETENTION job kind (docs/jobs.md, docs/pipeline.md#data-retention), one per hospital and day: every dataset
 * older than the retention of the policy in force for its team (as of the job's start) is moved to the recycle bin
 * (docs/domain.md#recycle-bin), audited as DATASET_RETENTION_EXPIRED with the reason 'retention'; then the bin's
 * datasets past their 30 days are purged with their objects (DATASET_PURGED); last, the patient links stored ACTIVE past
 * their expiry are stored EXPIRED, so the compliance center's count of expired links reads only a day's worth
 * (docs/domain.md#oversight-figures). A chunk reads one page of
 * RETENTION_PAGE datasets (by the list's index, never a scan) and acts on those the page before it found, so a
 * chunk moves or purges at most RETENTION_PAGE. An item is one dataset: SUCCEEDED (moved, `ref` recycle-bin; purged,
 * `ref` purged; a link stored expired, `ref` expired), SKIPPED (under legal hold, `LEGAL_HOLD`; a stage writing it, `INVALID_STATE`; gone meanwhile). A
 * deactivated hospital's job ends at its next chunk without touching anything.
 */
export const retentionJob: JobKindHandler<RetentionDeps> = {
  // Moving to the bin and purging both append to the hospital's one audit chain.
  itemsAtOnce: 4,
  async chunk(job, cursor, deps) {
    // A deactivated hospital's data stays as it was, so a restore brings it all back (docs/domain.md#deactivation).
    if (!(await hospitalIsActive(job.hospitalId, deps.directory))) return { items: [], next: null };
    const at = cursor ? (JSON.parse(cursor) as RetentionCursor) : START;
    const items: JobWorkItem[] = at.pending.map((value, i) => ({
      seq: job.processed + i + 1,
      subject: value.id,
      value,
    }));
    const asOf = String(job.input.asOf);
    let next: RetentionCursor | null;
    if (at.phase === 'expire') {
      const page = await deps.datasets.list({
        hospitalId: job.hospitalId,
        limit: RETENTION_PAGE,
        ...(at.key ? { startKey: at.key } : {}),
      });
      const pending = await expiredOf(job.hospitalId, page.items, Date.parse(asOf), deps);
      next = page.lastKey ? { phase: 'expire', key: page.lastKey, pending } : { phase: 'purge', key: null, pending };
    } else if (at.phase === 'purge') {
      const page = await deps.datasets.listBin({
        hospitalId: job.hospitalId,
        limit: RETENTION_PAGE,
        purgeBy: asOf,
        ...(at.key ? { startKey: at.key } : {}),
      });
      const pending = page.items.map((d): RetentionItem => ({ id: d.id, action: 'purge' }));
      next = { phase: page.lastKey ? 'purge' : 'shares', key: page.lastKey ?? null, pending };
    } else if (at.phase === 'shares') {
      const page = await deps.shares.listActivePastExpiry(job.hospitalId, asOf, {
        limit: RETENTION_PAGE,
        ...(at.key ? { startKey: at.key } : {}),
      });
      const pending = page.items.map((s): RetentionItem => ({
        id: s.id,
        action: 'expire-share',
        datasetId: s.datasetId,
      }));
      next = page.lastKey
        ? { phase: 'shares', key: page.lastKey, pending }
        : pending.length > 0
          ? { phase: 'done', key: null, pending }
          : null;
    } else {
      next = null;
    }
    return { items, next: next && JSON.stringify(next) };
  },
  async run(job, item, deps) {
    const value = item.value as RetentionItem;
    if (value.action === 'bin') return moveExpired(job.hospitalId, value, String(job.input.asOf), deps);
    if (value.action === 'expire-share') return expireShare(job.hospitalId, value, deps);
    return purgeDue(job.hospitalId, value, deps);
  },
};
