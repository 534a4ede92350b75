import { Box, Button, HStack, Input, RadioCard, SimpleGrid, Stack, Steps, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { PLAN_LABELS, SUBSCRIPTION_PLANS, type SubscriptionPlan } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { useDialogSubmit } from '#web/lib/use-dialog-submit.ts';
import { HospitalDetailsFields } from '#web/features/hospitals/components/hospital-details-fields.tsx';
import {
  canAdvance,
  EMPTY_HOSPITAL_DRAFT,
  stepErrors,
  toCreateRequest,
  WIZARD_STEPS,
  type HospitalDraft,
} from '#web/features/hospitals/utils/hospital-wizard.ts';
import type { CreateHospitalRequest } from '#shared/schemas/api/organisation.ts';

type Props = { open: boolean; onClose(): void; onCreate(request: CreateHospitalRequest): Promise<unknown> };

/** Add New Hospital: details, plan, first admin. Next is disabled until the step is valid; submit closes and resets. */
export function AddHospitalWizard({ open, onClose, onCreate }: Props) {
  const [step, setStep] = useState(0);
  const [draft, setDraft] = useState<HospitalDraft>(EMPTY_HOSPITAL_DRAFT);
  const [touched, setTouched] = useState<Set<keyof HospitalDraft>>(new Set());
  const { busy: saving, error, setError, submit: run } = useDialogSubmit();

  const errors = stepErrors(step, draft);
  const shown = Object.fromEntries(Object.entries(errors).filter(([k]) => touched.has(k as keyof HospitalDraft)));
  const change = (key: keyof HospitalDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const blur = (key: keyof HospitalDraft) => setTouched((t) => new Set(t).add(key));
  const reset = () => {
    setStep(0);
    setDraft(EMPTY_HOSPITAL_DRAFT);
    setTouched(new Set());
    setError(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = () => run(() => onCreate(toCreateRequest(draft)), close);
  const last = step === WIZARD_STEPS.length - 1;

  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="Add New Hospital"
      footer={
        <HStack justify="space-between" w="full">
          <Button variant="outline" onClick={step === 0 ? close : () => setStep(step - 1)}>
            {step === 0 ? 'Cancel' : 'Back'}
          </Button>
          {last ? (
            <Button onClick={submit} disabled={!canAdvance(step, draft)} loading={saving}>
              Create Hospital
            </Button>
          ) : (
            <Button onClick={() => setStep(step + 1)} disabled={!canAdvance(step, draft)}>
              Next
            </Button>
          )}
        </HStack>
      }
    >
      <Stack gap="5">
        <Steps.Root step={step} count={WIZARD_STEPS.length} size="sm">
          <Steps.List>
            {WIZARD_STEPS.map((title, index) => (
              <Steps.Item key={title} index={index} title={title}>
                <Steps.Indicator />
                <Steps.Title>{title}</Steps.Title>
                <Steps.Separator />
              </Steps.Item>
            ))}
          </Steps.List>
        </Steps.Root>
        {step === 0 && <HospitalDetailsFields draft={draft} errors={shown} onChange={change} onBlur={blur} />}
        {step === 1 && <PlanChoice value={draft.subscriptionPlan} onChange={(p) => change('subscriptionPlan', p)} />}
        {step === 2 && <FirstAdminFields draft={draft} errors={shown} onChange={change} onBlur={blur} />}
        {error && <ErrorBox message={error} />}
      </Stack>
    </Modal>
  );
}

function PlanChoice({ value, onChange }: { value: SubscriptionPlan; onChange(plan: SubscriptionPlan): void }) {
  return (
    <RadioCard.Root value={value} onValueChange={(e) => e.value && onChange(e.value as SubscriptionPlan)}>
      <RadioCard.Label>Subscription Plan</RadioCard.Label>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        {SUBSCRIPTION_PLANS.map((plan) => (
          <RadioCard.Item key={plan} value={plan}>
            <RadioCard.ItemHiddenInput />
            <RadioCard.ItemControl>
              <RadioCard.ItemContent>
                <RadioCard.ItemText>{PLAN_LABELS[plan].name}</RadioCard.ItemText>
                <RadioCard.ItemDescription>{PLAN_LABELS[plan].price}</RadioCard.ItemDescription>
              </RadioCard.ItemContent>
              <RadioCard.ItemIndicator />
            </RadioCard.ItemControl>
          </RadioCard.Item>
        ))}
      </SimpleGrid>
    </RadioCard.Root>
  );
}

type FieldProps = {
  draft: HospitalDraft;
  errors: Partial<Record<keyof HospitalDraft, string>>;
  onChange(key: keyof HospitalDraft, value: string): void;
  onBlur(key: keyof HospitalDraft): void;
};

const ADMIN_FIELDS = [
  { key: 'adminFirstName', label: 'Admin First Name', required: true },
  { key: 'adminLastName', label: 'Admin Last Name', required: true },
  { key: 'adminEmail', label: 'Admin Email', required: true, type: 'email' },
  { key: 'adminPhone', label: 'Admin Phone', type: 'tel' },
] as const;

function FirstAdminFields({ draft, errors, onChange, onBlur }: FieldProps) {
  return (
    <Stack gap="3">
      <Text color="fg.muted" fontSize="sm">
        The first hospital admin is invited by e-mail and manages the hospital&apos;s departments, teams and users.
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {ADMIN_FIELDS.map((f) => (
          <Box key={f.key}>
            <FormField label={f.label} required={'required' in f} error={errors[f.key]}>
              <Input
                name={f.key}
                type={'type' in f ? f.type : 'text'}
                value={draft[f.key]}
                onChange={(e) => onChange(f.key, e.target.value)}
                onBlur={() => onBlur(f.key)}
              />
            </FormField>
          </Box>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
