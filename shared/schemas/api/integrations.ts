import { z } from 'zod';
import { DICOMWEB_SCOPE_NAMES } from '#shared/vocabulary/integrations.ts';
import { IdSchema } from './common.ts';

/**
 * Integrations of a hospital (docs/dicom-intake.md): DICOMweb clients (OAuth 2.0 client credentials of a Cognito app
 * client) and DICOM nodes (a calling AE title and the addresses it may send from by C-STORE).
 */
export const INTEGRATION_KINDS = ['DICOMWEB_CLIENT', 'DICOM_NODE'] as const;
export const IntegrationKindSchema = z.enum(INTEGRATION_KINDS);
export type IntegrationKind = z.infer<typeof IntegrationKindSchema>;

export const INTEGRATION_STATUSES = ['ACTIVE', 'REVOKED'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** How long a received study stays quiet before its dataset enters the pipeline, unless committed (seconds). */
export const QUIET_SECONDS = { min: 10, max: 86_400, default: 300 } as const;

/**
 * PS3.5 6.2, value representation AE: at most 16 characters of the default repertoire, no backslash or control
 * character, not only spaces (leading and trailing spaces are not significant).
 */
export const AE_TITLE_MAX_LENGTH = 16;
/** PS3.5 section 6.2, AE: default character repertoire without backslash, not only spaces. */
export const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]*[\x21-\x5b\x5d-\x7e][\x20-\x5b\x5d-\x7e]*$/;
export function isAeTitle(value: string): boolean {
  return value.length <= AE_TITLE_MAX_LENGTH && AE_TITLE_PATTERN.test(value);
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 address or an IPv4 CIDR block (a.b.c.d/n): the source addresses a DICOM node may send from. */
export const SOURCE_ADDRESS_PATTERN = new RegExp(`^${OCTET}(\\.${OCTET}){3}(/(3[0-2]|[0-2]?\\d))?$`);
export function isSourceAddress(value: string): boolean {
  return SOURCE_ADDRESS_PATTERN.test(value);
}

const NameSchema = z.string().trim().min(1, 'Required').max(100);
/** Checked against the hospital's teams when the integration is created (docs/api-contract.md#rules-between-fields). */
const TEAM_RULE = 'teamId names an active team of the hospital';
const QuietSecondsSchema = z.number().int().min(QUIET_SECONDS.min).max(QUIET_SECONDS.max);

export const IntegrationSchema = z.object({
  id: IdSchema,
  hospitalId: IdSchema,
  kind: IntegrationKindSchema,
  name: z.string(),
  /**
   * The team its datasets belong to. A DICOMweb client with a team is bound to it: it reads only that team's studies
   * (under the team's data policy) and stores into it; one without a team is a read-only, hospital-wide reader
   * (docs/dicom-intake.md#dicomweb-clients). A DICOM node always has one.
   */
  teamId: IdSchema.optional(),
  teamName: z.string().optional(),
  status: z.enum(INTEGRATION_STATUSES),
  quietSeconds: z.number().int(),
  /** DICOMweb clients: the app client's id (the secret is shown once, at creation, and never stored). */
  clientId: z.string().optional(),
  /** DICOMweb clients: the scopes its app client was given; a route needs its scope here and in the token. */
  scopes: z.array(z.string()).optional(),
  /** DICOM nodes: the calling AE title and the allowed source addresses. */
  aeTitle: z.string().optional(),
  allowedAddresses: z.array(z.string()).optional(),
  createdAt: z.string(),
  createdByUserId: z.string(),
  createdByName: z.string(),
  revokedAt: z.string().optional(),
  lastUsedAt: z.string().optional(),
});
export type Integration = z.infer<typeof IntegrationSchema>;

export const IntegrationListSchema = z.object({
  items: z.array(IntegrationSchema),
  /** Where DICOM nodes send C-STORE (host and port of the listener) and where clients get tokens and call DICOMweb. */
  endpoints: z.object({
    dicomWebUrl: z.string(),
    tokenUrl: z.string(),
    dicomPort: z.number().int().optional(),
    calledAeTitle: z.string(),
  }),
});

/**
 * A DICOMweb client: the scopes the admin chose (read, write or both; both unless given) and optionally the team it is
 * bound to. Writing needs a team, since STOW-RS files its studies into one (docs/dicom-intake.md#dicomweb-clients).
 */
export const CreateDicomWebClientRequestSchema = z
  .object({
    name: NameSchema,
    teamId: IdSchema.optional(),
    scopes: z
      .array(z.enum(DICOMWEB_SCOPE_NAMES))
      .min(1, 'Choose read, write or both')
      .max(DICOMWEB_SCOPE_NAMES.length)
      .optional(),
    quietSeconds: QuietSecondsSchema.optional(),
  })
  .strict()
  .refine((request) => request.teamId !== undefined || !(request.scopes ?? DICOMWEB_SCOPE_NAMES).includes('write'), {
    path: ['teamId'],
    message: 'A client that writes needs a team',
  })
  // The same rule for the document: a team, or scopes given without `write` (absent scopes mean read and write).
  .meta({
    anyOf: [
      { required: ['teamId'] },
      { required: ['scopes'], properties: { scopes: { not: { contains: { const: 'write' } } } } },
    ],
    'x-rules': [TEAM_RULE],
  });
export type CreateDicomWebClientRequest = z.infer<typeof CreateDicomWebClientRequestSchema>;

export const CreatedDicomWebClientSchema = z.object({
  integration: IntegrationSchema,
  /** Shown once: the server keeps no copy. */
  clientSecret: z.string(),
  tokenUrl: z.string(),
});
export type CreatedDicomWebClient = z.infer<typeof CreatedDicomWebClientSchema>;

export const CreateDicomNodeRequestSchema = z
  .object({
    name: NameSchema,
    teamId: IdSchema,
    aeTitle: z
      .string()
      .max(AE_TITLE_MAX_LENGTH, 'Invalid AE title')
      .regex(AE_TITLE_PATTERN, 'Invalid AE title')
      .transform((v) => v.trim()),
    allowedAddresses: z.array(z.string().trim().regex(SOURCE_ADDRESS_PATTERN, 'Invalid address')).min(1).max(20),
    quietSeconds: QuietSecondsSchema.optional(),
  })
  .strict()
  .meta({ 'x-rules': [TEAM_RULE] });
export type CreateDicomNodeRequest = z.infer<typeof CreateDicomNodeRequestSchema>;

export const IntegrationPathSchema = z.object({ integrationId: IdSchema });
