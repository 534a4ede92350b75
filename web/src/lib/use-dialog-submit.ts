import { useState } from 'react';
import { errorMessage } from '#web/lib/api-error.ts';

/**
 * A dialog's submit: `busy` while it runs, then `done` (usually closing the dialog); a failure keeps the dialog open
 * with the error's message in `error`.
 */
export function useDialogSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (work: () => Promise<unknown>, done: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      done();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}
