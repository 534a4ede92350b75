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

export const DicomUidSchema = z.string().refine(isDicomUid, 'Invalid input');

/** Cursor-paginated list; `nextToken` is opaque (an encoded DynamoDB LastEvaluatedKey, sealed to the hospital). */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    nextToken: z.string().nullable(),
    total: z.number().int().nonnegative().optional(),
  });
}
