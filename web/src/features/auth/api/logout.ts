import { LogoutResponseSchema } from '#shared/schemas/api/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** Records the sign-out in the audit log; the caller ignores failures (docs/error-catalogue.md#auth-and-lookup). */
export function logout() {
  return apiRequest('/api/auth/logout', LogoutResponseSchema, { method: 'POST', body: {} });
}
