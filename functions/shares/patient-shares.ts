import {
  createPatientShare,
  getShareAccessLog,
  listPatientShares,
  revokePatientShare,
} from '#shared/domain/shares/patient-shares.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const listShares = httpHandler(
  'GET /api/datasets/{id}/patient-shares',
  async ({ pathParameters }, caller, deps) => listPatientShares(pathParameters.id, caller, deps),
);

export const createShare = httpHandler(
  'POST /api/datasets/{id}/patient-shares',
  async ({ pathParameters, body }, caller, deps) => createPatientShare(pathParameters.id, body, caller, deps),
);

export const revokeShare = httpHandler(
  'DELETE /api/datasets/{id}/patient-shares/{shareId}',
  async ({ pathParameters }, caller, deps) =>
    revokePatientShare(pathParameters.id, pathParameters.shareId, caller, deps),
);

export const accessLog = httpHandler(
  'GET /api/datasets/{id}/patient-shares/{shareId}/access-log',
  async ({ pathParameters }, caller, deps) =>
    getShareAccessLog(pathParameters.id, pathParameters.shareId, caller, deps),
);
