export { MeResponseSchema, type MeResponse } from '#shared/schemas/api/auth.ts';
