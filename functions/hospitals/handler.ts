import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as listHospitals } from './list-hospitals.ts';
import { handler as createHospital } from './create-hospital.ts';
import { handler as getHospital } from './get-hospital.ts';
import { handler as updateHospital } from './update-hospital.ts';
import { handler as deleteHospital } from './delete-hospital.ts';
import { handler as restoreHospital } from './restore-hospital.ts';
import { handler as getOverview } from './get-overview.ts';
import { handler as getDeidentificationPolicy } from './get-deidentification-policy.ts';
import { handler as putDeidentificationPolicy } from './put-deidentification-policy.ts';
import { handler as getSystemPolicy } from './get-system-policy.ts';
import { handler as putSystemPolicy } from './put-system-policy.ts';
import { handler as getHospitalSettings } from './get-hospital-settings.ts';
import { handler as putHospitalSettings } from './put-hospital-settings.ts';

const route = dispatch<'hospitals'>({
  'GET /api/hospitals': listHospitals,
  'POST /api/hospitals': createHospital,
  'GET /api/hospitals/{hospitalId}': getHospital,
  'PATCH /api/hospitals/{hospitalId}': updateHospital,
  'DELETE /api/hospitals/{hospitalId}': deleteHospital,
  'POST /api/hospitals/{hospitalId}/restore': restoreHospital,
  'GET /api/hospital-admin/overview': getOverview,
  'GET /api/hospital-admin/deidentification-policy': getDeidentificationPolicy,
  'PUT /api/hospital-admin/deidentification-policy': putDeidentificationPolicy,
  'GET /api/system/policy': getSystemPolicy,
  'PUT /api/system/policy': putSystemPolicy,
  'GET /api/hospital-admin/settings': getHospitalSettings,
  'PUT /api/hospital-admin/settings': putHospitalSettings,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
