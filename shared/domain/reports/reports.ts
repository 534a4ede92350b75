import { isHospitalWide, requireCan, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { auditHospital } from '#shared/domain/audit/audit-trail.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { walkDatasets } from '#shared/domain/datasets/walk-datasets.ts';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import type { Reports } from '#shared/schemas/api/oversight.ts';

/** First day (UTC) of the month `months - 1` months before the month of `now`: a range of `months` calendar months. */
export function rangeStart(now: string, months: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (months - 1), 1));
}

/** yyyy-mm of every month of the range, oldest first. */
export function monthsOf(start: Date, months: number): string[] {
  return Array.from({ length: months }, (_, i) =>
    new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1)).toISOString().slice(0, 7),
  );
}

/** Nearest-rank percentile of sorted values (null for none). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

const zeroCounts = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/**
 * The reports page (docs/screens.md#reports): the hospital's (for a lead, member or guest, their team's) studies of the last 3, 6 or 12 months per month by
 * type and status, per team, the storage they added, the users who created them, and how long the completed ones
 * took in the pipeline. Read from the hospital's by-creation-time index over the range only.
 */
export async function getReports(
  input: { hospitalId?: string; months: number },
  caller: Caller,
  deps: { datasets: DatasetRepository; directory: Directory; clock: Clock },
): Promise<Reports> {
  // VIEW_ANALYTICS (docs/roles-and-permissions.md#permission-checks): an admin for the hospital, anyone else for their
  // own team's studies only.
  const hospitalWide = isHospitalWide(caller);
  const teamId = hospitalWide ? undefined : caller.teamId;
  if (teamId === null) throw new AccessDeniedError();
  requireCan(caller, 'VIEW_ANALYTICS', { teamId });
  const hospitalId = hospitalWide ? await auditHospital(caller, input.hospitalId, deps.directory) : caller.hospitalId;
  const now = deps.clock.now();
  const start = rangeStart(now, input.months);
  const months = monthsOf(start, input.months);
  const studies: DatasetRecord[] = [];
  // A team's report reads the team's index over the range, not the hospital's.
  await walkDatasets(
    deps.datasets,
    hospitalId,
    (d) => void (teamId === undefined || d.teamId === teamId ? studies.push(d) : undefined),
    start.toISOString(),
    teamId,
  );

  const perMonth = months.map((month) => {
    const ofMonth = studies.filter((d) => d.createdAt.slice(0, 7) === month);
    const byType = zeroCounts(STUDY_TYPES);
    const byStatus = zeroCounts(DATASET_STATUSES);
    for (const d of ofMonth) {
      byType[d.studyType]++;
      byStatus[d.status]++;
    }
    return {
      month,
      studies: ofMonth.length,
      byType,
      byStatus,
      storageAddedBytes: ofMonth.reduce((sum, d) => sum + d.sizeBytes, 0),
      storageTotalBytes: 0,
      activeUsers: new Set(ofMonth.map((d) => d.ownerUserId)).size,
    };
  });
  let running = 0;
  for (const month of perMonth) {
    running += month.storageAddedBytes;
    month.storageTotalBytes = running;
  }

  const teams = new Map<string | null, { studies: number; completed: number; failed: number; perMonth: number[] }>();
  for (const d of studies) {
    const team = teams.get(d.teamId) ?? { studies: 0, completed: 0, failed: 0, perMonth: months.map(() => 0) };
    team.studies++;
    const month = months.indexOf(d.createdAt.slice(0, 7));
    if (month >= 0) team.perMonth[month]!++;
    if (d.status === 'COMPLETE') team.completed++;
    if (d.status === 'FAILED') team.failed++;
    teams.set(d.teamId, team);
  }
  const byTeam = await Promise.all(
    [...teams.entries()].map(async ([teamId, counts]) => ({
      teamId,
      teamName: teamId ? ((await deps.directory.getTeam(hospitalId, teamId))?.name ?? teamId) : 'No team',
      ...counts,
    })),
  );
  byTeam.sort((a, b) => b.studies - a.studies || a.teamName.localeCompare(b.teamName));

  // From the pipeline taking the study to its completion; studies completed before those times were kept count from
  // their creation to their last change.
  const durations = studies
    .filter((d) => d.status === 'COMPLETE')
    .map((d) => (Date.parse(d.completedAt ?? d.updatedAt) - Date.parse(d.processingStartedAt ?? d.createdAt)) / 60_000)
    .filter((m) => Number.isFinite(m) && m >= 0)
    .sort((a, b) => a - b);
  const minutes = (p: number) => {
    const value = percentile(durations, p);
    return value === null ? null : Math.round(value * 10) / 10;
  };

  return {
    hospitalId,
    months: input.months,
    from: start.toISOString(),
    generatedAt: now,
    totals: {
      studies: studies.length,
      storageBytes: running,
      activeUsers: new Set(studies.map((d) => d.ownerUserId)).size,
    },
    perMonth,
    byTeam,
    processingMinutes: { completed: durations.length, p50: minutes(50), p90: minutes(90), p99: minutes(99) },
  };
}
