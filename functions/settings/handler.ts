import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as getHospitalSettings } from './get-hospital-settings.ts';
import { handler as putHospitalSettings } from './put-hospital-settings.ts';
import { handler as getSystemPolicy } from './get-system-policy.ts';
import { handler as putSystemPolicy } from './put-system-policy.ts';
import { handler as getDeidentificationPolicy } from './get-deidentification-policy.ts';
import { handler as putDeidentificationPolicy } from './put-deidentification-policy.ts';
import { deleteHospitalSso, getHospitalSso, putHospitalSso, readHospitalSamlMetadata, testHospitalSso } from './sso.ts';

/** Hospital settings: the hospital's profile and policy, the system maximums above it, its de-identification policy, its single sign-on. */
const route = dispatch<'settings'>({
  'GET /api/hospital-admin/settings': getHospitalSettings,
  'PUT /api/hospital-admin/settings': putHospitalSettings,
  'GET /api/system/policy': getSystemPolicy,
  'PUT /api/system/policy': putSystemPolicy,
  'GET /api/hospital-admin/deidentification-policy': getDeidentificationPolicy,
  'PUT /api/hospital-admin/deidentification-policy': putDeidentificationPolicy,
  'GET /api/hospital-admin/sso': getHospitalSso,
  'PUT /api/hospital-admin/sso': putHospitalSso,
  'DELETE /api/hospital-admin/sso': deleteHospitalSso,
  'POST /api/hospital-admin/sso/test': testHospitalSso,
  'POST /api/hospital-admin/sso/saml-metadata': readHospitalSamlMetadata,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
