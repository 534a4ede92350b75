import useSWR from 'swr';
import { ROUTE_SCHEMAS } from '#shared/definitions/api/route-schemas.ts';
import type { CreatePatientShare, TeamSharePermission } from '#shared/schemas/api/shares.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The share routes (shared/definitions/api/routes.ts, docs/domain.md#shares), answers parsed with their shared schemas. */
const R = ROUTE_SCHEMAS;
const id = encodeURIComponent;

export const teamSharesKey = (datasetId: string) => ['/api/datasets/{id}/team-shares', datasetId] as const;
export const patientSharesKey = (datasetId: string) => ['/api/datasets/{id}/patient-shares', datasetId] as const;

export function useTeamShares(datasetId: string) {
  return useSWR(teamSharesKey(datasetId), () =>
    apiRequest(`/api/datasets/${id(datasetId)}/team-shares`, R['GET /api/datasets/{id}/team-shares'].response),
  );
}

export function usePatientShares(datasetId: string) {
  return useSWR(patientSharesKey(datasetId), () =>
    apiRequest(`/api/datasets/${id(datasetId)}/patient-shares`, R['GET /api/datasets/{id}/patient-shares'].response),
  );
}

export function useTeamDicomShares(teamId: string) {
  return useSWR(['/api/teams/{teamId}/dicom-shares', teamId], () =>
    apiRequest(`/api/teams/${id(teamId)}/dicom-shares`, R['GET /api/teams/{teamId}/dicom-shares'].response),
  );
}

export function useSharedWithMe() {
  return useSWR(['/api/shares/received'], () =>
    apiRequest('/api/shares/received', R['GET /api/shares/received'].response),
  );
}

export const shareApprovalsKey = ['/api/shares/approvals'] as const;

/** The approval queue of a lead or hospital admin (docs/domain.md#share-policy). */
export function useShareApprovals() {
  return useSWR(shareApprovalsKey, () => apiRequest('/api/shares/approvals', R['GET /api/shares/approvals'].response));
}

export function useShareAccessLog(datasetId: string, shareId: string | undefined) {
  return useSWR(shareId ? ['/api/datasets/{id}/patient-shares/{shareId}/access-log', datasetId, shareId] : null, () =>
    apiRequest(
      `/api/datasets/${id(datasetId)}/patient-shares/${id(shareId!)}/access-log`,
      R['GET /api/datasets/{id}/patient-shares/{shareId}/access-log'].response,
    ),
  );
}

export const sharesApi = {
  shareWithTeam: (
    datasetId: string,
    body: { memberIds?: string[]; teamId?: string; permissions: TeamSharePermission[] },
  ) =>
    apiRequest(`/api/datasets/${id(datasetId)}/team-shares`, R['POST /api/datasets/{id}/team-shares'].response, {
      method: 'POST',
      body,
    }),
  revokeTeamShare: (datasetId: string, shareId: string) =>
    apiRequest(
      `/api/datasets/${id(datasetId)}/team-shares/${id(shareId)}`,
      R['DELETE /api/datasets/{id}/team-shares/{shareId}'].response,
      { method: 'DELETE' },
    ),
  shareWithPatient: (datasetId: string, body: CreatePatientShare) =>
    apiRequest(`/api/datasets/${id(datasetId)}/patient-shares`, R['POST /api/datasets/{id}/patient-shares'].response, {
      method: 'POST',
      body,
    }),
  approveShare: (shareId: string) =>
    apiRequest(
      `/api/shares/approvals/${id(shareId)}/approve`,
      R['POST /api/shares/approvals/{shareId}/approve'].response,
      { method: 'POST' },
    ),
  refuseShare: (shareId: string) =>
    apiRequest(
      `/api/shares/approvals/${id(shareId)}/refuse`,
      R['POST /api/shares/approvals/{shareId}/refuse'].response,
      { method: 'POST' },
    ),
  revokePatientShare: (datasetId: string, shareId: string) =>
    apiRequest(
      `/api/datasets/${id(datasetId)}/patient-shares/${id(shareId)}`,
      R['DELETE /api/datasets/{id}/patient-shares/{shareId}'].response,
      { method: 'DELETE' },
    ),
};

/** The patient's public routes: no token of ours is sent (none exists on the patient page). */
export const patientApi = {
  requestCode: (token: string) =>
    apiRequest('/api/patient-access/code', R['POST /api/patient-access/code'].response, {
      method: 'POST',
      body: { token },
    }),
  verify: (token: string, code: string) =>
    apiRequest('/api/patient-access/verify', R['POST /api/patient-access/verify'].response, {
      method: 'POST',
      body: { token, code },
    }),
  study: (session: string) =>
    apiRequest('/api/patient-access/study', R['POST /api/patient-access/study'].response, {
      method: 'POST',
      body: { session },
    }),
  download: (session: string, assetId: string) =>
    apiRequest('/api/patient-access/download', R['POST /api/patient-access/download'].response, {
      method: 'POST',
      body: { session, assetId },
    }),
};
