import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as acceptInvitation } from './accept-invitation.ts';
import { handler as cancelInvitation } from './cancel-invitation.ts';
import { handler as cancelTeamInvitation } from './cancel-team-invitation.ts';
import { handler as declineInvitation } from './decline-invitation.ts';
import { handler as listInvitations } from './list-invitations.ts';
import { handler as listTeamInvitations } from './list-team-invitations.ts';
import { handler as previewInvitation } from './preview-invitation.ts';
import { handler as resendInvitation } from './resend-invitation.ts';
import { handler as resendTeamInvitation } from './resend-team-invitation.ts';
import { handler as sendBulkInvitations } from './send-bulk-invitations.ts';
import { handler as sendInvitation } from './send-invitation.ts';
import { handler as sendTeamInvitation } from './send-team-invitation.ts';

const route = dispatch<'invitations'>({
  'GET /api/invitations': listInvitations,
  'POST /api/invitations': sendInvitation,
  'POST /api/invitations/bulk': sendBulkInvitations,
  'POST /api/invitations/{invitationId}/resend': resendInvitation,
  'DELETE /api/invitations/{invitationId}': cancelInvitation,
  'GET /api/teams/{teamId}/invitations': listTeamInvitations,
  'POST /api/teams/{teamId}/invitations': sendTeamInvitation,
  'POST /api/teams/{teamId}/invitations/{invitationId}/resend': resendTeamInvitation,
  'DELETE /api/teams/{teamId}/invitations/{invitationId}': cancelTeamInvitation,
  'GET /api/invitations/preview': previewInvitation,
  'POST /api/invitations/accept': acceptInvitation,
  'POST /api/invitations/decline': declineInvitation,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
