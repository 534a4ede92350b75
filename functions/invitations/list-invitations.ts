import { listHospitalInvitations } from '#shared/domain/invitations/manage-invitations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/invitations', async ({ query }, caller, deps) =>
  listHospitalInvitations(query, caller, deps),
);
