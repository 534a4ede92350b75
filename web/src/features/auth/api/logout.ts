import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** Records the sign-out in the audit log; the caller ignores failures (record section 8). */
export function logout(): Promise<unknown> {
  return apiRequest('/api/auth/logout', z.unknown(), { method: 'POST', body: {} });
}
