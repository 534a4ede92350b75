import type { MeResponse } from '#shared/schemas/api/auth.ts';

export { MeResponseSchema, type MeResponse } from '#shared/schemas/api/auth.ts';
export type CurrentUser = MeResponse['user'];
