import { useState } from 'react';
import type { z } from 'zod';
import { firstIssueByField } from '#web/lib/form-errors.ts';

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError };

/**
 * A validated form's submit: the schema's first message per field when the values do not parse; otherwise the
 * field messages and the server error are cleared and `send` runs with `busy` set, `onError` taking its failure.
 */
export function useFormSubmit<Field extends PropertyKey>() {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async <T>(parsed: Parsed<T>, send: (data: T) => Promise<void>, onError: (error: unknown) => void) => {
    if (!parsed.success) {
      setErrors(firstIssueByField<Field>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(undefined);
    setBusy(true);
    try {
      await send(parsed.data);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return { errors, serverError, setServerError, busy, submit };
}
