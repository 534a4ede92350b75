import { can, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import type { Clock } from '#shared/domain/ports.ts';
import { counterName, parseDayCounter } from '#shared/domain/reports/counters.ts';
import type { AnalyticsPeriod, TeamAnalytics } from '#shared/schemas/api/team-analytics.ts';
import { STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { visibleTeam } from './common.ts';
import type { OrganisationDeps } from './ports.ts';

export type TeamAnalyticsDeps = Pick<OrganisationDeps, 'directory' | 'organisation'> & { clock: Clock };

const PERIOD_DAYS: Record<AnalyticsPeriod, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_YEAR: 365,
};
const MEMBER_LIMIT = 100;
const DAY_MS = 86_400_000;
const CREATOR_PREFIX = counterName.creator('');

/**
 * A team's analytics for a period (docs/screens.md#teams-page): the datasets it created since the period's first day,
 * counted from the team's report items (docs/domain.md#report-counters), never from the datasets, and its members'
 * sign-ins. The team's lead and a hospital admin see it, and a member or guest granted VIEW_ANALYTICS
 * (docs/roles-and-permissions.md#permission-checks).
 */
export async function getTeamAnalytics(
  caller: Caller,
  teamId: string,
  period: AnalyticsPeriod,
  deps: TeamAnalyticsDeps,
): Promise<TeamAnalytics> {
  const team = await visibleTeam(caller, teamId, deps);
  const leadOrAdmin = caller.role === 'HOSPITAL_ADMIN' || caller.role === 'TEAM_LEAD';
  if (!leadOrAdmin && !can(caller, 'VIEW_ANALYTICS', { teamId: team.id })) throw new AccessDeniedError();

  const today = new Date(`${deps.clock.now().slice(0, 10)}T00:00:00.000Z`);
  const fromDate = new Date(today.getTime() - (PERIOD_DAYS[period] - 1) * DAY_MS);
  const from = fromDate.toISOString();
  const to = today.toISOString().slice(0, 10);
  const monthly = period === 'LAST_YEAR';
  // The team's month items the period touches (at most 4 for 90 days, 13 for the year), whose counts per day are
  // summed over the period's days (docs/domain.md#report-counters).
  const [items, members] = await Promise.all([
    deps.organisation.listReportCounts(caller.hospitalId, team.id, from.slice(0, 7), to.slice(0, 7)),
    deps.organisation.listUsers({ hospitalId: caller.hospitalId, teamId, limit: MEMBER_LIMIT }),
  ]);
  const totals = new Map<string, number>();
  const bucketOf = (day: string) => (monthly ? day.slice(0, 7) : day);
  const timeline = new Map<string, number>();
  for (let t = fromDate.getTime(); t <= today.getTime(); t += DAY_MS)
    timeline.set(bucketOf(new Date(t).toISOString().slice(0, 10)), 0);
  const names: Record<string, string> = {};
  for (const item of items) {
    Object.assign(names, item.names);
    for (const [counter, count] of Object.entries(item.counts)) {
      const daily = parseDayCounter(counter);
      if (!daily || daily.day < from.slice(0, 10) || daily.day > to) continue;
      totals.set(daily.name, (totals.get(daily.name) ?? 0) + count);
      const bucket = bucketOf(daily.day);
      if (daily.name === counterName.studies && timeline.has(bucket))
        timeline.set(bucket, timeline.get(bucket)! + count);
    }
  }
  const sum = (name: string) => Math.max(0, totals.get(name) ?? 0);
  const byType = Object.fromEntries(
    STUDY_TYPES.map((t) => [t, sum(counterName.type(t))]),
  ) as TeamAnalytics['datasetsByType'];
  // Per creator, under the name they created with.
  const memberActivity = [...totals]
    .filter(([counter, count]) => counter.startsWith(CREATOR_PREFIX) && count > 0)
    .map(([counter, count]) => {
      const userId = counter.slice(CREATOR_PREFIX.length);
      return { name: names[counterName.ownerName(userId)] ?? userId, datasets: count };
    })
    .sort((a, b) => b.datasets - a.datasets || a.name.localeCompare(b.name));
  return {
    teamId: team.id,
    period,
    from: from.slice(0, 10),
    totalDatasets: sum(counterName.studies),
    uploadsCompleted: sum(counterName.status('COMPLETE')),
    failed: sum(counterName.status('FAILED')),
    storageAddedBytes: sum(counterName.bytes),
    activeMembers: members.items.filter((u) => u.lastLogin !== undefined && u.lastLogin >= from).length,
    members: members.items.length,
    datasetsByType: byType,
    memberActivity,
    timeline: [...timeline].map(([bucket, count]) => ({ bucket, datasets: count })),
    // Counted from the report items, the answer holds every dataset of the period.
    truncated: false,
  };
}
