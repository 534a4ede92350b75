import { isHospitalWide, requireCan, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { auditHospital } from '#shared/domain/audit/audit-trail.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { counterName, histogramPercentile, HOSPITAL_PARTS, NO_TEAM, PROCESSING_BUCKET_BOUNDS } from './counters.ts';
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
 * The reports page (docs/screens.md#reports): the hospital's (for a lead, member or guest, their team's) studies of the
 * last 3, 6 or 12 months per month by type and status, per team, the storage they added, the users who created them,
 * and how long the completed ones took in the pipeline. Read from the range's report items only (the hospital's three
 * a month, or the team's one: docs/domain.md#report-counters), never from the datasets, and the names of the teams.
 */
export async function getReports(
  input: { hospitalId?: string; months: number },
  caller: Caller,
  deps: { organisation: Pick<OrganisationStore, 'listReportCounts' | 'listTeams'>; directory: Directory; clock: Clock },
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
  // A team's report reads the team's month items, the hospital's report its three parts of each month.
  const scopes = teamId ? [teamId] : [...HOSPITAL_PARTS];
  const stored = (
    await Promise.all(
      scopes.map((scope) => deps.organisation.listReportCounts(hospitalId, scope, months[0]!, months.at(-1)!)),
    )
  ).flat();
  const byMonth = new Map<string, Record<string, number>>();
  for (const item of stored) byMonth.set(item.period, { ...byMonth.get(item.period), ...item.counts });
  const countsOf = (month: string) => byMonth.get(month) ?? {};
  const n = (counts: Record<string, number>, name: string) => Math.max(0, counts[name] ?? 0);
  const creatorsOf = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([name, count]) => name.startsWith(CREATOR_PREFIX) && count > 0)
      .map(([name]) => name.slice(CREATOR_PREFIX.length));

  const perMonth = months.map((month) => {
    const counts = countsOf(month);
    const byType = zeroCounts(STUDY_TYPES);
    const byStatus = zeroCounts(DATASET_STATUSES);
    for (const type of STUDY_TYPES) byType[type] = n(counts, counterName.type(type));
    for (const status of DATASET_STATUSES) byStatus[status] = n(counts, counterName.status(status));
    return {
      month,
      studies: n(counts, counterName.studies),
      byType,
      byStatus,
      storageAddedBytes: n(counts, counterName.bytes),
      storageTotalBytes: 0,
      activeUsers: creatorsOf(counts).length,
    };
  });
  let running = 0;
  for (const month of perMonth) {
    running += month.storageAddedBytes;
    month.storageTotalBytes = running;
  }

  const teams = new Map<string, { studies: number; completed: number; failed: number; perMonth: number[] }>();
  months.forEach((month, i) => {
    for (const [name, count] of Object.entries(countsOf(month))) {
      const match = TEAM_COUNTER.exec(name);
      if (!match || count <= 0) continue;
      const [, team, figure] = match as unknown as [string, string, 'studies' | 'completed' | 'failed'];
      const row = teams.get(team) ?? { studies: 0, completed: 0, failed: 0, perMonth: months.map(() => 0) };
      row[figure] += count;
      if (figure === 'studies') row.perMonth[i]! += count;
      teams.set(team, row);
    }
  });
  const names = await teamNames(hospitalId, teamId, deps);
  const byTeam = await Promise.all(
    [...teams.entries()]
      .filter(([, counts]) => counts.studies > 0)
      .map(async ([key, counts]) => {
        const id = key === NO_TEAM ? null : key;
        // A team the index did not list (none should be missing) is read on its own.
        const name = id ? (names.get(id) ?? (await deps.directory.getTeam(hospitalId, id))?.name ?? id) : 'No team';
        return { teamId: id, teamName: name, ...counts };
      }),
  );
  byTeam.sort((a, b) => b.studies - a.studies || a.teamName.localeCompare(b.teamName));

  // The processing-time histogram of the completed studies (docs/domain.md#report-counters): nearest-rank percentiles
  // read from its buckets, so each is the upper bound of the bucket the exact value lies in.
  const buckets = Array.from({ length: PROCESSING_BUCKET_BOUNDS.length + 1 }, (_, b) =>
    months.reduce((sum, month) => sum + n(countsOf(month), counterName.processing(b)), 0),
  );
  const minutes = (p: number) => histogramPercentile(buckets, p);

  return {
    hospitalId,
    months: input.months,
    from: start.toISOString(),
    generatedAt: now,
    totals: {
      studies: perMonth.reduce((sum, m) => sum + m.studies, 0),
      storageBytes: running,
      activeUsers: new Set(months.flatMap((month) => creatorsOf(countsOf(month)))).size,
    },
    perMonth,
    byTeam,
    processingMinutes: {
      completed: buckets.reduce((a, b) => a + b, 0),
      p50: minutes(50),
      p90: minutes(90),
      p99: minutes(99),
    },
  };
}

const CREATOR_PREFIX = counterName.creator('');
const TEAM_PAGE = 100;

/**
 * The names of the teams a report lists: for a team's report its own; for the hospital's every team of the hospital
 * (archived ones too), read a page of 100 at a time from its teams index, so the items read are the hospital's teams
 * whichever of them had studies in the range.
 */
async function teamNames(
  hospitalId: string,
  teamId: string | undefined,
  deps: { organisation: Pick<OrganisationStore, 'listTeams'>; directory: Directory },
): Promise<Map<string, string>> {
  if (teamId) {
    const team = await deps.directory.getTeam(hospitalId, teamId);
    return new Map(team ? [[team.id, team.name]] : []);
  }
  const names = new Map<string, string>();
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.organisation.listTeams({ hospitalId, includeArchived: true, limit: TEAM_PAGE, startKey });
    for (const team of page.items) names.set(team.id, team.name);
    startKey = page.lastKey;
  } while (startKey);
  return names;
}
const TEAM_COUNTER = /^team#(.+)#(studies|completed|failed)$/;
