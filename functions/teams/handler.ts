import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as archiveTeam } from './archive-team.ts';
import { handler as changeMemberPermissions } from './change-member-permissions.ts';
import { handler as changeMemberRole } from './change-member-role.ts';
import { handler as createTeam } from './create-team.ts';
import { handler as getTeam } from './get-team.ts';
import { handler as getTeamAnalytics } from './get-team-analytics.ts';
import { handler as getTeamPolicy } from './get-team-policy.ts';
import { handler as listMembers } from './list-members.ts';
import { handler as listTeams } from './list-teams.ts';
import { handler as putTeamPolicy } from './put-team-policy.ts';
import { handler as removeMember } from './remove-member.ts';
import { handler as restoreTeam } from './restore-team.ts';
import { handler as updateTeam } from './update-team.ts';

const route = dispatch<'teams'>({
  'GET /api/teams': listTeams,
  'POST /api/teams': createTeam,
  'GET /api/teams/{teamId}': getTeam,
  'PATCH /api/teams/{teamId}': updateTeam,
  'POST /api/teams/{teamId}/archive': archiveTeam,
  'POST /api/teams/{teamId}/restore': restoreTeam,
  'GET /api/teams/{teamId}/members': listMembers,
  'GET /api/teams/{teamId}/analytics': getTeamAnalytics,
  'PATCH /api/teams/{teamId}/members/{memberId}/role': changeMemberRole,
  'PATCH /api/teams/{teamId}/members/{memberId}/permissions': changeMemberPermissions,
  'DELETE /api/teams/{teamId}/members/{memberId}': removeMember,
  'GET /api/teams/{teamId}/policy': getTeamPolicy,
  'PUT /api/teams/{teamId}/policy': putTeamPolicy,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
