import { Button, HStack, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import {
  PLAN_LABELS,
  SUBSCRIPTION_PLANS,
  type Hospital,
  type UpdateHospitalRequest,
} from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { useDialogSubmit } from '#web/lib/use-dialog-submit.ts';
import { HospitalDetailsFields } from '#web/features/hospitals/components/hospital-details-fields.tsx';
import {
  draftFromHospital,
  editErrors,
  toUpdateRequest,
  type HospitalDraft,
} from '#web/features/hospitals/utils/hospital-wizard.ts';

type Props = { hospital: Hospital; onClose(): void; onSave(request: UpdateHospitalRequest): Promise<unknown> };

/** Edit Hospital: the same six required fields as step 1 of Add Hospital, and the plan. */
export function EditHospitalDialog({ hospital, onClose, onSave }: Props) {
  const [draft, setDraft] = useState<HospitalDraft>(() => draftFromHospital(hospital));
  const { busy: saving, error, submit } = useDialogSubmit();
  const errors = editErrors(draft);
  const valid = Object.keys(errors).length === 0;
  const change = (key: keyof HospitalDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const save = () => submit(() => onSave(toUpdateRequest(draft)), onClose);

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title="Edit Hospital"
      footer={
        <HStack>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!valid} loading={saving}>
            Save Changes
          </Button>
        </HStack>
      }
    >
      <Stack gap="4">
        <HospitalDetailsFields draft={draft} errors={errors} onChange={change} onBlur={() => {}} />
        <FormField label="Subscription Plan">
          <Select
            aria-label="Subscription Plan"
            value={draft.subscriptionPlan}
            onChange={(v) => change('subscriptionPlan', v)}
            options={SUBSCRIPTION_PLANS.map((p) => ({
              value: p,
              label: `${PLAN_LABELS[p].name} (${PLAN_LABELS[p].price})`,
            }))}
          />
        </FormField>
        {error && <ErrorBox message={error} />}
      </Stack>
    </Modal>
  );
}
