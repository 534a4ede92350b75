import { httpHandler } from '#functions/lib/http-handler.ts';
import { createScimToken, listScimTokens, revokeScimToken } from '#shared/domain/scim/tokens.ts';

/** The hospital admin's SCIM tokens (docs/sso.md#provisioning-scim): list, create (shown once), revoke. */
export const listTokens = httpHandler('GET /api/hospital-admin/scim-tokens', async (_request, caller, deps) =>
  listScimTokens(caller, deps),
);

export const createToken = httpHandler('POST /api/hospital-admin/scim-tokens', async ({ body }, caller, deps) =>
  createScimToken(body.name, caller, deps),
);

export const revokeToken = httpHandler(
  'DELETE /api/hospital-admin/scim-tokens/{tokenId}',
  async ({ pathParameters }, caller, deps) => revokeScimToken(pathParameters.tokenId, caller, deps),
);
