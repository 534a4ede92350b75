import { useState } from 'react';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';

/**
 * One save button's run: `saving` while it is in flight, a success toast with `doneTitle` after it, and the error's
 * message in an error toast when it fails.
 */
export function useSaveAction() {
  const [saving, setSaving] = useState(false);
  const run = async (work: () => Promise<unknown>, doneTitle: string) => {
    setSaving(true);
    try {
      await work();
      toaster.create({ type: 'success', title: doneTitle });
    } catch (error) {
      toaster.create({ type: 'error', title: 'Error', description: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };
  return { saving, run };
}
