import {
  createTeamShares,
  listDatasetTeamShares,
  listSharedWithMe,
  listTeamDicomShares,
  revokeTeamShare,
} from '#shared/domain/shares/team-shares.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const listTeamShares = httpHandler(
  'GET /api/datasets/{id}/team-shares',
  async ({ pathParameters }, caller, deps) => listDatasetTeamShares(pathParameters.id, caller, deps),
);

export const createTeamShare = httpHandler(
  'POST /api/datasets/{id}/team-shares',
  async ({ pathParameters, body }, caller, deps) => createTeamShares(pathParameters.id, body, caller, deps),
);

export const revokeShare = httpHandler(
  'DELETE /api/datasets/{id}/team-shares/{shareId}',
  async ({ pathParameters }, caller, deps) => revokeTeamShare(pathParameters.id, pathParameters.shareId, caller, deps),
);

export const listDicomShares = httpHandler(
  'GET /api/teams/{teamId}/dicom-shares',
  async ({ pathParameters }, caller, deps) => listTeamDicomShares(pathParameters.teamId, caller, deps),
);

export const listReceived = httpHandler('GET /api/shares/received', async (_request, caller, deps) =>
  listSharedWithMe(caller, deps),
);
