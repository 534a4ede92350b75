import useSWR from 'swr';
import { SsoSettingsResponseSchema, TestSsoResultSchema, type PutSsoRequest } from '#shared/schemas/api/sso.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The hospital's single sign-on (docs/sso.md): its OIDC provider, saved apart from the settings form. */
export const ssoKey = '/api/hospital-admin/sso';

export function useSso() {
  return useSWR(ssoKey, () => apiRequest(ssoKey, SsoSettingsResponseSchema));
}

export function saveSso(body: PutSsoRequest) {
  return apiRequest(ssoKey, SsoSettingsResponseSchema, { method: 'PUT', body });
}

export function disconnectSso() {
  return apiRequest(ssoKey, SsoSettingsResponseSchema, { method: 'DELETE' });
}

export function testSso(issuer: string) {
  return apiRequest(`${ssoKey}/test`, TestSsoResultSchema, { method: 'POST', body: { issuer } });
}
