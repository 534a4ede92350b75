import { z } from 'zod';

/** Error body of every API failure: `{ error: { code, message } }`, message in the catalogue's words. */
export const ApiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const IdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'Invalid input');

/** PS3.5 section 9.1 limit on a UID's length. */
export const MAX_DICOM_UID_LENGTH = 64;

/**
 * A DICOM UID as PS3.5 section 9.1 defines it: components of digits separated by dots, no component empty or with a
 * leading zero (a lone "0" is a component), at most 64 characters. Checked before a UID can reach a key.
 */
export function isDicomUid(value: string): boolean {
  return value.length <= MAX_DICOM_UID_LENGTH && /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/.test(value);
}

/** isDicomUid as a pattern, so the OpenAPI document carries it (docs/api-contract.md). */
export const DICOM_UID_PATTERN = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/;

export const DicomUidSchema = z
  .string()
  .max(MAX_DICOM_UID_LENGTH, 'Invalid input')
  .regex(DICOM_UID_PATTERN, 'Invalid input');

/**
 * An integer of the query string: API Gateway passes every parameter as text, read as a number before `schema`
 * checks it. The OpenAPI document shows `schema` itself (a preprocess is documented by its target), so every range
 * or list of allowed values the route checks is in the document (docs/api-contract.md).
 */
export function queryNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), schema);
}

/** A string trimmed before `schema` checks it (an e-mail address pasted with a space); documented as `schema`. */
export function trimmed<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' ? value.trim() : value), schema);
}

/**
 * The `nextToken` a list answered, sent back for the next page: opaque (sealed to the hospital), so any other value is
 * refused with VALIDATION_FAILED. The document marks it `x-opaque`: a client only ever echoes it.
 */
export function pageTokenSchema(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .meta({ description: 'The nextToken of the previous page, as the API answered it', 'x-opaque': true });
}

/** Cursor-paginated list; `nextToken` is opaque (an encoded DynamoDB LastEvaluatedKey, sealed to the hospital). */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    nextToken: z.string().nullable(),
    total: z.number().int().nonnegative().optional(),
  });
}
