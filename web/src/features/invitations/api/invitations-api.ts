import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { z } from 'zod';
import { ROUTE_SCHEMAS } from '#shared/definitions/api/route-schemas.ts';
import type {
  AcceptInvitation,
  BulkInvitationRequest,
  InvitationList,
  ADMIN_LIST_STATUSES,
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

type AdminListStatus = (typeof ADMIN_LIST_STATUSES)[number];

/** Invitations a list loads at a time (the routes' default page). */
export const INVITATION_PAGE_SIZE = 50;

/** The pages loaded so far as one list: their rows in order, the counts and token of the newest answer. */
export type InvitationPages = {
  data: InvitationList | undefined;
  error: Error | undefined;
  mutate(): Promise<unknown>;
  /** Loads the next page; absent when every invitation is loaded. */
  loadMore?: () => void;
  loadingMore: boolean;
};

/**
 * A list route of invitations a page at a time, newest first (docs/domain.md#invitations): "Load more" asks the
 * next page with the token the last answered.
 */
function useInvitationPages(key: readonly string[] | null, path: string, status?: AdminListStatus): InvitationPages {
  const pages = useSWRInfinite(
    (index, previous: InvitationList | null) => {
      if (!key || (index > 0 && !previous?.nextToken)) return null;
      return [...key, status ?? '', index > 0 ? previous!.nextToken! : ''] as const;
    },
    (parts: readonly string[]) =>
      apiRequest(path, R['GET /api/invitations'].response, {
        query: {
          limit: INVITATION_PAGE_SIZE,
          ...(status ? { status } : {}),
          ...(parts.at(-1) ? { nextToken: parts.at(-1) } : {}),
        },
      }),
    // A new filter keeps the rows shown until its first page comes; "Load more" asks only the next page.
    { keepPreviousData: true, revalidateFirstPage: false },
  );
  const loaded = pages.data;
  const last = loaded?.at(-1);
  return {
    data:
      loaded && last
        ? { items: loaded.flatMap((p) => p.items), counts: last.counts, nextToken: last.nextToken }
        : undefined,
    error: pages.error as Error | undefined,
    mutate: () => pages.mutate(),
    loadMore: last?.nextToken ? () => void pages.setSize(pages.size + 1) : undefined,
    loadingMore: pages.isValidating && pages.size > (loaded?.length ?? 0),
  };
}

/** The hospital's invitations, all or those of one of the Pending tab's filters. */
export function useHospitalInvitations(status?: AdminListStatus): InvitationPages {
  return useInvitationPages(invitationsKey, '/api/invitations', status);
}

export function useTeamInvitations(teamId: string | undefined): InvitationPages {
  return useInvitationPages(teamId ? teamInvitationsKey(teamId) : null, `/api/teams/${id(teamId ?? '')}/invitations`);
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
