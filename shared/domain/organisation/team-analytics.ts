import { can, type Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { AccessDeniedError } from '#shared/domain/errors.ts';
import type { Clock } from '#shared/domain/ports.ts';
import type { AnalyticsPeriod, TeamAnalytics } from '#shared/schemas/api/team-analytics.ts';
import { STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { visibleTeam } from './common.ts';
import type { OrganisationDeps } from './ports.ts';

export type TeamAnalyticsDeps = Pick<OrganisationDeps, 'directory' | 'organisation'> & {
  datasets: Pick<DatasetRepository, 'list'>;
  clock: Clock;
};

const PERIOD_DAYS: Record<AnalyticsPeriod, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_YEAR: 365,
};
/** The most datasets one answer reads (10 pages of the team's index); beyond it the answer says `truncated`. */
export const ANALYTICS_DATASET_LIMIT = 1000;
const PAGE = 100;
const MEMBER_LIMIT = 100;
const DAY_MS = 86_400_000;

/**
 * A team's analytics for a period (docs/screens.md#teams-page): its datasets created since the period's first day, read
 * through the team's index from that day on (a key range, so older datasets are never read), and its members' sign-ins.
 * The team's lead and a hospital admin see it, and a member or guest granted VIEW_ANALYTICS
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
  const datasets: DatasetRecord[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.datasets.list({
      hospitalId: caller.hospitalId,
      teamId: team.id,
      createdFrom: from,
      limit: PAGE,
      startKey,
    });
    datasets.push(...page.items);
    startKey = page.lastKey;
  } while (startKey && datasets.length < ANALYTICS_DATASET_LIMIT);
  const members = await deps.organisation.listUsers({ hospitalId: caller.hospitalId, teamId, limit: MEMBER_LIMIT });

  const byType = Object.fromEntries(STUDY_TYPES.map((t) => [t, 0])) as TeamAnalytics['datasetsByType'];
  const byOwner = new Map<string, number>();
  const monthly = period === 'LAST_YEAR';
  const bucketOf = (iso: string) => (monthly ? iso.slice(0, 7) : iso.slice(0, 10));
  const timeline = new Map<string, number>();
  for (let t = fromDate.getTime(); t <= today.getTime(); t += DAY_MS)
    timeline.set(bucketOf(new Date(t).toISOString()), 0);
  for (const d of datasets) {
    byType[d.studyType] += 1;
    byOwner.set(d.ownerName, (byOwner.get(d.ownerName) ?? 0) + 1);
    const bucket = bucketOf(d.createdAt);
    if (timeline.has(bucket)) timeline.set(bucket, timeline.get(bucket)! + 1);
  }
  return {
    teamId: team.id,
    period,
    from: from.slice(0, 10),
    totalDatasets: datasets.length,
    uploadsCompleted: datasets.filter((d) => d.status === 'COMPLETE').length,
    failed: datasets.filter((d) => d.status === 'FAILED').length,
    storageAddedBytes: datasets.reduce((sum, d) => sum + Math.max(0, d.sizeBytes), 0),
    activeMembers: members.items.filter((u) => u.lastLogin !== undefined && u.lastLogin >= from).length,
    members: members.items.length,
    datasetsByType: byType,
    memberActivity: [...byOwner]
      .map(([name, count]) => ({ name, datasets: count }))
      .sort((a, b) => b.datasets - a.datasets || a.name.localeCompare(b.name)),
    timeline: [...timeline].map(([bucket, count]) => ({ bucket, datasets: count })),
    truncated: startKey !== undefined,
  };
}
