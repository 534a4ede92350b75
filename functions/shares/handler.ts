import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { accessLog, createShare, listShares, revokeShare as revokePatientShare } from './patient-shares.ts';
import { approveShare, listApprovals, refuseShare } from './approvals.ts';
import { createTeamShare, listDicomShares, listReceived, listTeamShares, revokeShare } from './team-shares.ts';

const route = dispatch<'shares'>({
  'GET /api/datasets/{id}/team-shares': listTeamShares,
  'POST /api/datasets/{id}/team-shares': createTeamShare,
  'DELETE /api/datasets/{id}/team-shares/{shareId}': revokeShare,
  'GET /api/teams/{teamId}/dicom-shares': listDicomShares,
  'GET /api/shares/received': listReceived,
  'GET /api/shares/approvals': listApprovals,
  'POST /api/shares/approvals/{shareId}/approve': approveShare,
  'POST /api/shares/approvals/{shareId}/refuse': refuseShare,
  'GET /api/datasets/{id}/patient-shares': listShares,
  'POST /api/datasets/{id}/patient-shares': createShare,
  'DELETE /api/datasets/{id}/patient-shares/{shareId}': revokePatientShare,
  'GET /api/datasets/{id}/patient-shares/{shareId}/access-log': accessLog,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
