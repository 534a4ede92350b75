import useSWR from 'swr';
import { z } from 'zod';
import { ROUTE_SCHEMAS } from '#shared/definitions/api/route-schemas.ts';
import type {
  AcceptInvitation,
  BulkInvitationRequest,
  SingleInvitationInput,
  TeamInvitationInput,
} from '#shared/schemas/api/invitations.ts';
import { DepartmentSchema, TeamPageSchema } from '#shared/schemas/api/organisation.ts';
import { apiAllPages, apiRequest } from '#web/lib/api-client.ts';

/** The invitation routes (shared/definitions/api/routes.ts), answers parsed with their shared schemas. */
const R = ROUTE_SCHEMAS;
const id = encodeURIComponent;

export const invitationsKey = ['/api/invitations'] as const;
export const teamInvitationsKey = (teamId: string) => ['/api/teams/{teamId}/invitations', teamId] as const;

export function useHospitalInvitations() {
  return useSWR(invitationsKey, () => apiRequest('/api/invitations', R['GET /api/invitations'].response));
}

export function useTeamInvitations(teamId: string | undefined) {
  return useSWR(teamId ? teamInvitationsKey(teamId) : null, () =>
    apiRequest(`/api/teams/${id(teamId!)}/invitations`, R['GET /api/teams/{teamId}/invitations'].response),
  );
}

/** Departments and teams of the hospital for the forms (built by the organisation screens' API). */
export function useOrganisation() {
  return useSWR(['/api/departments', '/api/teams'], async () => {
    const [departments, teams] = await Promise.all([
      apiRequest('/api/departments', z.object({ items: z.array(DepartmentSchema) })),
      apiAllPages('/api/teams', TeamPageSchema),
    ]);
    return { departments: departments.items, teams: teams.items.filter((t) => t.isActive) };
  });
}

export const invitationsApi = {
  send: (body: SingleInvitationInput) =>
    apiRequest('/api/invitations', R['POST /api/invitations'].response, { method: 'POST', body }),
  sendBulk: (body: BulkInvitationRequest) =>
    apiRequest('/api/invitations/bulk', R['POST /api/invitations/bulk'].response, { method: 'POST', body }),
  resend: (invitationId: string) =>
    apiRequest(
      `/api/invitations/${id(invitationId)}/resend`,
      R['POST /api/invitations/{invitationId}/resend'].response,
      {
        method: 'POST',
      },
    ),
  cancel: (invitationId: string) =>
    apiRequest(`/api/invitations/${id(invitationId)}`, R['DELETE /api/invitations/{invitationId}'].response, {
      method: 'DELETE',
    }),
  sendToTeam: (teamId: string, body: TeamInvitationInput) =>
    apiRequest(`/api/teams/${id(teamId)}/invitations`, R['POST /api/teams/{teamId}/invitations'].response, {
      method: 'POST',
      body,
    }),
  resendTeam: (teamId: string, invitationId: string) =>
    apiRequest(
      `/api/teams/${id(teamId)}/invitations/${id(invitationId)}/resend`,
      R['POST /api/teams/{teamId}/invitations/{invitationId}/resend'].response,
      { method: 'POST' },
    ),
  cancelTeam: (teamId: string, invitationId: string) =>
    apiRequest(
      `/api/teams/${id(teamId)}/invitations/${id(invitationId)}`,
      R['DELETE /api/teams/{teamId}/invitations/{invitationId}'].response,
      { method: 'DELETE' },
    ),
  preview: (token: string) =>
    apiRequest('/api/invitations/preview', R['GET /api/invitations/preview'].response, { query: { token } }),
  accept: (body: AcceptInvitation) =>
    apiRequest('/api/invitations/accept', R['POST /api/invitations/accept'].response, { method: 'POST', body }),
  decline: (token: string) =>
    apiRequest('/api/invitations/decline', R['POST /api/invitations/decline'].response, {
      method: 'POST',
      body: { token },
    }),
};
