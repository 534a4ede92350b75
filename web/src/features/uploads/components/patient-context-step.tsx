import { Button, Flex, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { useDepartments } from '#web/lib/departments.ts';
import {
  STUDY_TYPE_OPTIONS,
  URGENCY_OPTIONS,
  type PatientContextDraft,
} from '#web/features/uploads/utils/patient-context.ts';

type Props = {
  value: PatientContextDraft;
  errors: Partial<Record<keyof PatientContextDraft, string>>;
  onChange(value: PatientContextDraft): void;
  onSaveDraft(): void;
  onContinue(): void;
  savingDraft: boolean;
  draftSaved: boolean;
};

/** Step 1 (docs/domain.md#patient-context): all fields required except research consent; MRN never stored, only its keyed hash. */
export function PatientContextStep({
  value,
  errors,
  onChange,
  onSaveDraft,
  onContinue,
  savingDraft,
  draftSaved,
}: Props) {
  const set = <K extends keyof PatientContextDraft>(key: K, v: PatientContextDraft[K]) =>
    onChange({ ...value, [key]: v });
  return (
    <Stack gap="5" as="section" aria-label="Patient Context">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField
          label="Medical Record Number (MRN)"
          required
          error={errors.mrn}
          helperText="Replaced by a hospital-specific alias; the MRN itself is never stored."
        >
          <Input name="mrn" autoComplete="off" value={value.mrn} onChange={(e) => set('mrn', e.target.value)} />
        </FormField>
        <FormField label="Study Type" required error={errors.studyType}>
          <Select
            name="studyType"
            aria-label="Study Type"
            value={value.studyType}
            placeholder="Select study type"
            onChange={(v) => set('studyType', v)}
            options={STUDY_TYPE_OPTIONS}
          />
        </FormField>
        <FormField label="Study Description" required error={errors.studyDescription}>
          <Input
            name="studyDescription"
            value={value.studyDescription}
            onChange={(e) => set('studyDescription', e.target.value)}
          />
        </FormField>
        <FormField label="Urgency" error={errors.urgency}>
          <Select
            name="urgency"
            aria-label="Urgency"
            value={value.urgency}
            onChange={(v) => set('urgency', v)}
            options={URGENCY_OPTIONS}
          />
        </FormField>
        <FormField label="Ordering Physician" required error={errors.orderingPhysician}>
          <Input
            name="orderingPhysician"
            value={value.orderingPhysician}
            onChange={(e) => set('orderingPhysician', e.target.value)}
          />
        </FormField>
        <DepartmentField
          value={value}
          error={errors.department}
          onChange={(department, departmentId) => onChange({ ...value, department, departmentId })}
        />
      </SimpleGrid>
      <FormField label="Clinical Indication" required error={errors.clinicalIndication}>
        <Textarea
          name="clinicalIndication"
          rows={3}
          value={value.clinicalIndication}
          onChange={(e) => set('clinicalIndication', e.target.value)}
        />
      </FormField>
      <Stack gap="2">
        <Checkbox
          name="patientConsent"
          checked={value.patientConsent}
          onCheckedChange={(v) => set('patientConsent', v)}
        >
          Patient consent obtained *
        </Checkbox>
        {errors.patientConsent && (
          <Text color="fg.error" fontSize="sm">
            {errors.patientConsent}
          </Text>
        )}
        <Checkbox
          name="hipaaDisclosure"
          checked={value.hipaaDisclosure}
          onCheckedChange={(v) => set('hipaaDisclosure', v)}
        >
          HIPAA disclosure acknowledged *
        </Checkbox>
        {errors.hipaaDisclosure && (
          <Text color="fg.error" fontSize="sm">
            {errors.hipaaDisclosure}
          </Text>
        )}
        <Checkbox
          name="researchConsent"
          checked={value.researchConsent}
          onCheckedChange={(v) => set('researchConsent', v)}
        >
          Research consent (optional)
        </Checkbox>
      </Stack>
      <Flex justify="space-between" gap="3" wrap="wrap">
        <Button variant="outline" onClick={onSaveDraft} loading={savingDraft}>
          {draftSaved ? 'Update Draft' : 'Save as Draft'}
        </Button>
        <Button onClick={onContinue}>Continue to File Upload</Button>
      </Flex>
    </Stack>
  );
}

/**
 * The hospital's departments (GET /api/departments) as a choice: the dataset keeps the department's id and name.
 * While the hospital has no departments (or they cannot be loaded), the name is typed.
 */
function DepartmentField({
  value,
  error,
  onChange,
}: {
  value: PatientContextDraft;
  error?: string;
  onChange(department: string, departmentId: string): void;
}) {
  const { data, isLoading } = useDepartments();
  const departments = data?.items ?? [];
  if (isLoading || departments.length > 0) {
    // A draft saved before departments existed names one; it is picked again by its name.
    const chosen =
      departments.find((d) => d.id === value.departmentId) ?? departments.find((d) => d.name === value.department);
    return (
      <FormField label="Department" required error={error}>
        <Select
          name="department"
          aria-label="Department"
          value={chosen?.id ?? ''}
          placeholder={isLoading ? 'Loading departments...' : 'Select department'}
          disabled={isLoading}
          onChange={(id) => onChange(departments.find((d) => d.id === id)?.name ?? '', id)}
          options={departments.map((d) => ({ value: d.id, label: d.name }))}
        />
      </FormField>
    );
  }
  return (
    <FormField
      label="Department"
      required
      error={error}
      helperText="Your hospital has no departments yet; the hospital admin adds them under Teams."
    >
      <Input name="department" value={value.department} onChange={(e) => onChange(e.target.value, '')} />
    </FormField>
  );
}
