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
export const IsoDateTimeSchema = z.string();

/** Cursor-paginated list; `nextToken` is opaque (an encoded DynamoDB LastEvaluatedKey, sealed to the hospital). */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    nextToken: z.string().nullable(),
    total: z.number().int().nonnegative().optional(),
  });
}
