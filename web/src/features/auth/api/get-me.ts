import { apiRequest } from '#web/lib/api-client.ts';
import { MeResponseSchema, type MeResponse } from './me-schema.ts';

export const meKey = () => ['/api/me'] as const;

export function getMe(): Promise<MeResponse> {
  return apiRequest('/api/me', MeResponseSchema);
}
