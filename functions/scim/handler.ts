import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import {
  createUser,
  deleteUser,
  getGroup,
  getUser,
  listGroups,
  listUsers,
  patchGroup,
  patchUser,
  replaceUser,
  resourceTypes,
  schemas,
  serviceProviderConfig,
} from './resources.ts';
import { createToken, listTokens, revokeToken } from './tokens.ts';

const route = dispatch<'scim'>({
  'GET /api/hospital-admin/scim-tokens': listTokens,
  'POST /api/hospital-admin/scim-tokens': createToken,
  'DELETE /api/hospital-admin/scim-tokens/{tokenId}': revokeToken,
  'GET /scim/v2/ServiceProviderConfig': serviceProviderConfig,
  'GET /scim/v2/ResourceTypes': resourceTypes,
  'GET /scim/v2/Schemas': schemas,
  'GET /scim/v2/Users': listUsers,
  'POST /scim/v2/Users': createUser,
  'GET /scim/v2/Users/{id}': getUser,
  'PUT /scim/v2/Users/{id}': replaceUser,
  'PATCH /scim/v2/Users/{id}': patchUser,
  'DELETE /scim/v2/Users/{id}': deleteUser,
  'GET /scim/v2/Groups': listGroups,
  'GET /scim/v2/Groups/{id}': getGroup,
  'PATCH /scim/v2/Groups/{id}': patchGroup,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
