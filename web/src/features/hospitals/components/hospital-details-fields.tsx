import { Input, SimpleGrid, Textarea } from '@chakra-ui/react';
import { COUNTRIES, TIMEZONES } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';
import type { DraftErrors, HospitalDraft } from '#web/features/hospitals/utils/hospital-wizard.ts';

type Props = {
  draft: HospitalDraft;
  errors: DraftErrors;
  onChange(key: keyof HospitalDraft, value: string): void;
  onBlur(key: keyof HospitalDraft): void;
};

type TextKey = 'name' | 'email' | 'phone' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'website';
const TEXT_FIELDS: { key: TextKey; label: string; required?: boolean; type?: string }[] = [
  { key: 'name', label: 'Hospital Name', required: true },
  { key: 'email', label: 'Email', required: true, type: 'email' },
  { key: 'phone', label: 'Phone', required: true, type: 'tel' },
  { key: 'website', label: 'Website', type: 'url' },
  { key: 'addressLine1', label: 'Address Line 1', required: true },
  { key: 'addressLine2', label: 'Address Line 2' },
  { key: 'city', label: 'City', required: true },
  { key: 'state', label: 'State', required: true },
];

/** Step 1 of Add Hospital and the Edit Hospital modal share these fields (docs/screens.md#hospital-management). */
export function HospitalDetailsFields({ draft, errors, onChange, onBlur }: Props) {
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      {TEXT_FIELDS.map((f) => (
        <FormField key={f.key} label={f.label} required={f.required} error={errors[f.key]}>
          <Input
            name={f.key}
            type={f.type ?? 'text'}
            value={draft[f.key]}
            onChange={(e) => onChange(f.key, e.target.value)}
            onBlur={() => onBlur(f.key)}
          />
        </FormField>
      ))}
      <FormField label="Country">
        <Select
          name="country"
          aria-label="Country"
          value={draft.country}
          onChange={(v) => onChange('country', v)}
          options={COUNTRIES.map((c) => ({ value: c, label: c }))}
        />
      </FormField>
      <FormField label="Timezone">
        <Select
          name="timezone"
          aria-label="Timezone"
          value={draft.timezone}
          onChange={(v) => onChange('timezone', v)}
          options={TIMEZONES.map((t) => ({ value: t, label: t }))}
        />
      </FormField>
      <FormField label="Specialization" helperText="Separate several with commas">
        <Input
          name="specialization"
          value={draft.specialization}
          onChange={(e) => onChange('specialization', e.target.value)}
        />
      </FormField>
      <FormField label="Description" error={errors.description}>
        <Textarea
          name="description"
          rows={2}
          value={draft.description}
          onChange={(e) => onChange('description', e.target.value)}
        />
      </FormField>
    </SimpleGrid>
  );
}
