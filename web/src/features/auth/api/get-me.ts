import { apiRequest } from '#web/lib/api-client.ts';
import { MeResponseSchema, type MeResponse } from './me-schema.ts';

export function getMe(): Promise<MeResponse> {
  return apiRequest('/api/me', MeResponseSchema);
}
