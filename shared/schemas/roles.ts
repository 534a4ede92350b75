import { z } from 'zod';
import { PERMISSIONS, ROLES } from '#shared/vocabulary/roles.ts';

/** The roles and permissions of the vocabulary as request and response schemas. */
export const RoleSchema = z.enum(ROLES);
export const PermissionSchema = z.enum(PERMISSIONS);
export const PermissionGrantSchema = z.union([PermissionSchema, z.literal('*')]);
