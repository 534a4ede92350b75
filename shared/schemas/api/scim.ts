import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * SCIM provisioning tokens of a hospital (docs/sso.md#provisioning-scim): a name for the identity provider that
 * holds it and the dates; the token itself is answered once, at creation. The SCIM resources themselves are RFC 7643
 * JSON, parsed with the scimmy library by the SCIM handlers, not by these schemas.
 */
export const ScimTokenSchema = z.object({
  id: IdSchema,
  name: z.string(),
  createdAt: z.string(),
  createdByUserId: z.string(),
  revokedAt: z.string().nullable(),
});
export type ScimToken = z.infer<typeof ScimTokenSchema>;

export const ScimTokenListSchema = z.object({ items: z.array(ScimTokenSchema) });

export const CreateScimTokenSchema = z.object({ name: z.string().trim().min(1, 'Required').max(100) });
export type CreateScimToken = z.infer<typeof CreateScimTokenSchema>;

export const CreatedScimTokenSchema = z.object({
  /** The bearer token, shown once: only its SHA-256 is stored. */
  token: z.string(),
  item: ScimTokenSchema,
});
export type CreatedScimToken = z.infer<typeof CreatedScimTokenSchema>;

export const ScimTokenPathSchema = z.object({ tokenId: IdSchema });

/** SCIM path parameters: ids are ours (user ids) or a group's encoded name. */
export const ScimIdPathSchema = z.object({ id: z.string().min(1).max(512) });

/** A SCIM answer (RFC 7644 3), application/scim+json; its shape is the library's. */
export const ScimResponseSchema = z.record(z.string(), z.unknown());
