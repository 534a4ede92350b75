import { getTeamAnalytics } from '#shared/domain/organisation/team-analytics.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'GET /api/teams/{teamId}/analytics',
  async ({ pathParameters, query }, caller, deps) =>
    getTeamAnalytics(caller, pathParameters.teamId, query.period, deps),
);
