import { type z } from 'zod';
import { CreateDatasetRequestSchema } from '#shared/schemas/api/datasets.ts';
import { STUDY_TYPES, URGENCIES } from '#shared/vocabulary/datasets.ts';

/** Step 1 of the wizard: the patient context of CreateDatasetRequestSchema (de-identification options come in step 4). */
export const PatientContextSchema = CreateDatasetRequestSchema.omit({ anonymization: true });

export type PatientContextDraft = {
  mrn: string;
  studyType: string;
  urgency: string;
  studyDescription: string;
  clinicalIndication: string;
  orderingPhysician: string;
  department: string;
  /** The chosen department of the hospital (GET /api/departments); '' while typed or not chosen. */
  departmentId: string;
  patientConsent: boolean;
  hipaaDisclosure: boolean;
  researchConsent: boolean;
};

export const EMPTY_PATIENT_CONTEXT: PatientContextDraft = {
  mrn: '',
  studyType: '',
  urgency: 'ROUTINE',
  studyDescription: '',
  clinicalIndication: '',
  orderingPhysician: '',
  department: '',
  departmentId: '',
  patientConsent: false,
  hipaaDisclosure: false,
  researchConsent: false,
};

export const STUDY_TYPE_OPTIONS = STUDY_TYPES.map((value) => ({
  value,
  label: {
    DIAGNOSTIC: 'Diagnostic',
    FOLLOW_UP: 'Follow-up',
    SCREENING: 'Screening',
    EMERGENCY: 'Emergency',
    RESEARCH: 'Research',
  }[value],
}));
export const URGENCY_OPTIONS = URGENCIES.map((value) => ({
  value,
  label: value.charAt(0) + value.slice(1).toLowerCase(),
}));

/** Validates the draft; returns the request fields or the first message per field. */
export function validatePatientContext(
  draft: PatientContextDraft,
):
  | { ok: true; value: z.output<typeof PatientContextSchema> }
  | { ok: false; errors: Partial<Record<keyof PatientContextDraft, string>> } {
  // The chosen department's id goes with its name; the server records the department's own name for that id.
  const parsed = PatientContextSchema.safeParse({
    ...draft,
    studyType: draft.studyType || undefined,
    departmentId: draft.departmentId || undefined,
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Partial<Record<keyof PatientContextDraft, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof PatientContextDraft;
    errors[key] ??= key === 'studyType' ? 'Required' : issue.message;
  }
  return { ok: false, errors };
}
