import useSWR from 'swr';
import { CreatedScimTokenSchema, ScimTokenListSchema, ScimTokenSchema } from '#shared/schemas/api/scim.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The hospital's SCIM provisioning tokens (docs/sso.md#provisioning-scim), saved at once. */
export const scimTokensKey = '/api/hospital-admin/scim-tokens';

export function useScimTokens() {
  return useSWR(scimTokensKey, () => apiRequest(scimTokensKey, ScimTokenListSchema));
}

export function createScimToken(name: string) {
  return apiRequest(scimTokensKey, CreatedScimTokenSchema, { method: 'POST', body: { name } });
}

export function revokeScimToken(tokenId: string) {
  return apiRequest(`${scimTokensKey}/${encodeURIComponent(tokenId)}`, ScimTokenSchema, { method: 'DELETE' });
}
