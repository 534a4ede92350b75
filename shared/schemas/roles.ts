import { z } from 'zod';
import { GRANTABLE_PERMISSIONS, PERMISSIONS, ROLES } from '#shared/vocabulary/roles.ts';

/** The roles and permissions of the vocabulary as request and response schemas. */
export const RoleSchema = z.enum(ROLES);
export const PermissionSchema = z.enum(PERMISSIONS);
export const PermissionGrantSchema = z.union([PermissionSchema, z.literal('*')]);
/** A permission that may be given (docs/roles-and-permissions.md#reserved-permissions): a reserved one is refused. */
export const GrantablePermissionSchema = z.enum(GRANTABLE_PERMISSIONS);
