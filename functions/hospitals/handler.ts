import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as listHospitals } from './list-hospitals.ts';
import { handler as createHospital } from './create-hospital.ts';
import { handler as getHospital } from './get-hospital.ts';
import { handler as updateHospital } from './update-hospital.ts';
import { handler as deleteHospital } from './delete-hospital.ts';
import { handler as restoreHospital } from './restore-hospital.ts';
import { handler as getOverview } from './get-overview.ts';

const route = dispatch<'hospitals'>({
  'GET /api/hospitals': listHospitals,
  'POST /api/hospitals': createHospital,
  'GET /api/hospitals/{hospitalId}': getHospital,
  'PATCH /api/hospitals/{hospitalId}': updateHospital,
  'DELETE /api/hospitals/{hospitalId}': deleteHospital,
  'POST /api/hospitals/{hospitalId}/restore': restoreHospital,
  'GET /api/hospital-admin/overview': getOverview,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
