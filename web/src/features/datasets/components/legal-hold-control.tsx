import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuShieldCheck, LuShieldOff } from 'react-icons/lu';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { setLegalHold } from '#web/features/datasets/api/dataset-actions.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDate } from '#web/lib/format.ts';

/**
 * The legal-hold toggle of the dataset page (docs/domain.md#legal-hold), for a team lead or a hospital admin: placing
 * or lifting a hold asks why, and the reason goes to the audit trail.
 */
export function LegalHoldControl({ dataset }: { dataset: Pick<Dataset, 'id' | 'legalHold'> }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const held = Boolean(dataset.legalHold);

  const submit = async () => {
    setBusy(true);
    try {
      await setLegalHold(dataset.id, !held, reason.trim());
      toaster.create({ type: 'success', title: held ? 'Legal hold lifted' : 'Legal hold placed' });
      setOpen(false);
      setReason('');
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        {held ? <LuShieldOff /> : <LuShieldCheck />} {held ? 'Lift Legal Hold' : 'Legal Hold'}
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={held ? 'Lift the legal hold?' : 'Place a legal hold?'}
        footer={
          <HStack>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={busy} disabled={!reason.trim()}>
              {held ? 'Lift Hold' : 'Place Hold'}
            </Button>
          </HStack>
        }
      >
        <Stack gap="3">
          <Text>
            {held
              ? `Held since ${formatDate(dataset.legalHold!.since)} by ${dataset.legalHold!.byName}: "${dataset.legalHold!.reason}". Once lifted, the dataset may be deleted, also by data retention.`
              : 'A dataset under legal hold cannot be deleted by anyone, and data retention keeps it.'}
          </Text>
          <FormField label="Reason" required>
            <Input name="legalHoldReason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
          </FormField>
        </Stack>
      </Modal>
    </>
  );
}
