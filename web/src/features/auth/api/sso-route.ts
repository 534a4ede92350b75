import { SsoRouteSchema } from '#shared/schemas/api/sso.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * The login page's e-mail step (docs/sso.md#domain-routing): the hosted-login URL when the e-mail's hospital signs in
 * with its identity provider, undefined for the password form (and when the question could not be answered).
 */
export async function ssoRouteFor(email: string): Promise<string | undefined> {
  if (!email.includes('@')) return undefined;
  try {
    const answer = await apiRequest('/api/auth/sso-route', SsoRouteSchema, { query: { email } });
    return answer.redirect ? answer.url : undefined;
  } catch {
    return undefined;
  }
}
