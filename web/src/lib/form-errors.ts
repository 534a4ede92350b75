import type { z } from 'zod';

/** Each field's first validation message from a schema's issues, keyed by the field the issue names first. */
export function firstIssueByField<K extends PropertyKey>(error: z.ZodError): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const issue of error.issues) errors[issue.path[0] as K] ??= issue.message;
  return errors;
}
