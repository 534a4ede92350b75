import { z } from 'zod';
import { PermissionGrantSchema, RoleSchema } from '#shared/schemas/roles.ts';
import { IdSchema } from './common.ts';

export const UserStatusSchema = z.enum(['ACTIVE', 'INVITED', 'DISABLED']);

/** GET /api/me: the signed-in user as the server knows them (record, not token), with hospital and team. */
export const MeResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: RoleSchema,
    status: UserStatusSchema,
    hospitalId: IdSchema,
    teamId: z.string().nullable(),
    /** The user's department of the hospital (docs/domain.md#departments); null when none. */
    departmentId: z.string().nullable().optional(),
    department: z.string().nullable(),
    specialization: z.string().nullable(),
    permissions: z.array(PermissionGrantSchema),
    lastLogin: z.string().nullable(),
  }),
  hospital: z.object({ id: IdSchema, name: z.string() }),
  team: z.object({ id: IdSchema, name: z.string() }).nullable(),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

export const LogoutResponseSchema = z.object({ success: z.literal(true) });
