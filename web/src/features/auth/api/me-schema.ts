import { z } from 'zod';
import { RoleSchema } from '../../../../../shared/auth/roles.ts';

/**
 * Shape of `GET /api/me` as agreed with the server (DESIGN.md contracts). The server's copy lives in
 * shared/schemas/api/auth.ts once it lands; this one is kept structurally identical and lenient on extras.
 */
export const MeResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: RoleSchema,
    status: z.string(),
    hospitalId: z.string(),
    teamId: z.string().nullable().optional(),
    department: z.string().nullable().optional(),
    specialization: z.string().nullable().optional(),
    permissions: z.array(z.string()),
    lastLogin: z.string().nullable().optional(),
  }),
  hospital: z.object({ id: z.string(), name: z.string() }).nullable(),
  team: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;
export type CurrentUser = MeResponse['user'];
