import useSWR from 'swr';
import { TeamAnalyticsSchema, type AnalyticsPeriod } from '#shared/schemas/api/team-analytics.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** GET /api/teams/{teamId}/analytics for a period (docs/screens.md#teams-page). */
export function useTeamAnalytics(teamId: string, period: AnalyticsPeriod) {
  const path = `/api/teams/${encodeURIComponent(teamId)}/analytics?period=${period}`;
  return useSWR(path, () => apiRequest(path, TeamAnalyticsSchema));
}
