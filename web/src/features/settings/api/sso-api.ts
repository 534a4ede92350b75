import useSWR from 'swr';
import {
  ReadSamlMetadataResultSchema,
  SsoSettingsResponseSchema,
  TestSsoResultSchema,
  type PutSsoRequest,
} from '#shared/schemas/api/sso.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The hospital's single sign-on (docs/sso.md): its OIDC or SAML provider, saved apart from the settings form. */
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

/** What the server reads of a SAML provider's metadata (its URL or a file's XML), before it is saved. */
export function readSamlMetadata(source: { metadataUrl?: string; metadataXml?: string }) {
  return apiRequest(`${ssoKey}/saml-metadata`, ReadSamlMetadataResultSchema, { method: 'POST', body: source });
}
