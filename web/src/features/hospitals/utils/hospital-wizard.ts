import { z } from 'zod';
import {
  CreateHospitalRequestSchema,
  HospitalDetailsSchema,
  HospitalFirstAdminSchema,
  SubscriptionPlanSchema,
  type CreateHospitalRequest,
  type Hospital,
  type SubscriptionPlan,
  type UpdateHospitalRequest,
  UpdateHospitalRequestSchema,
} from '#shared/schemas/api/organisation.ts';
import { firstIssueByField } from '#web/lib/form-errors.ts';

/** What the Add Hospital wizard and the Edit modal hold while typing: text fields as strings. */
export type HospitalDraft = {
  name: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  country: string;
  timezone: string;
  website: string;
  description: string;
  specialization: string;
  subscriptionPlan: SubscriptionPlan;
  adminFirstName: string;
  adminLastName: string;
  adminEmail: string;
  adminPhone: string;
};
export type DraftErrors = Partial<Record<keyof HospitalDraft, string>>;

/** docs/screens.md#add-new-hospital: defaults country US, timezone America/New_York, plan Pro. */
export const EMPTY_HOSPITAL_DRAFT: HospitalDraft = {
  name: '',
  email: '',
  phone: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  country: 'US',
  timezone: 'America/New_York',
  website: '',
  description: '',
  specialization: '',
  subscriptionPlan: 'PRO',
  adminFirstName: '',
  adminLastName: '',
  adminEmail: '',
  adminPhone: '',
};

export const WIZARD_STEPS = ['Hospital Details', 'Subscription Plan', 'Hospital Admin'] as const;

/** Empty optional text is "not given" for the schemas. */
function detailsInput(draft: HospitalDraft) {
  const optional = (v: string) => (v.trim() ? v : undefined);
  const specialization = draft.specialization
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    name: draft.name,
    email: draft.email,
    phone: draft.phone,
    addressLine1: draft.addressLine1,
    addressLine2: optional(draft.addressLine2),
    city: draft.city,
    state: draft.state,
    country: draft.country,
    timezone: draft.timezone,
    website: draft.website.trim(),
    description: optional(draft.description),
    specialization: specialization.length ? specialization : undefined,
  };
}

const STEP_SCHEMAS: readonly z.ZodType[] = [
  HospitalDetailsSchema,
  z.object({ subscriptionPlan: SubscriptionPlanSchema }),
  HospitalFirstAdminSchema,
];

function stepInput(step: number, draft: HospitalDraft): unknown {
  if (step === 0) return detailsInput(draft);
  if (step === 1) return { subscriptionPlan: draft.subscriptionPlan };
  return {
    adminFirstName: draft.adminFirstName,
    adminLastName: draft.adminLastName,
    adminEmail: draft.adminEmail,
    adminPhone: draft.adminPhone.trim() ? draft.adminPhone : undefined,
  };
}

/** The messages of one step, from the shared schemas (docs/screens.md#add-new-hospital); empty when the step is valid. */
export function stepErrors(step: number, draft: HospitalDraft): DraftErrors {
  const parsed = STEP_SCHEMAS[step]!.safeParse(stepInput(step, draft));
  return parsed.success ? {} : firstIssueByField<keyof HospitalDraft>(parsed.error);
}

/** Next (and Create on the last step) stays disabled until the step's required data is valid. */
export function canAdvance(step: number, draft: HospitalDraft): boolean {
  return Object.keys(stepErrors(step, draft)).length === 0;
}

export function toCreateRequest(draft: HospitalDraft): CreateHospitalRequest {
  return CreateHospitalRequestSchema.parse({
    ...detailsInput(draft),
    ...(stepInput(2, draft) as object),
    subscriptionPlan: draft.subscriptionPlan,
  });
}

export function editErrors(draft: HospitalDraft): DraftErrors {
  const parsed = UpdateHospitalRequestSchema.safeParse({
    ...detailsInput(draft),
    subscriptionPlan: draft.subscriptionPlan,
  });
  return parsed.success ? {} : firstIssueByField<keyof HospitalDraft>(parsed.error);
}

export function toUpdateRequest(draft: HospitalDraft): UpdateHospitalRequest {
  return UpdateHospitalRequestSchema.parse({ ...detailsInput(draft), subscriptionPlan: draft.subscriptionPlan });
}

/** The Edit modal starts from the hospital as stored. */
export function draftFromHospital(h: Hospital): HospitalDraft {
  return {
    ...EMPTY_HOSPITAL_DRAFT,
    name: h.name,
    email: h.email ?? '',
    phone: h.phone ?? '',
    addressLine1: h.addressLine1 ?? '',
    addressLine2: h.addressLine2 ?? '',
    city: h.city ?? '',
    state: h.state ?? '',
    country: h.country ?? 'US',
    timezone: h.timezone ?? 'America/New_York',
    website: h.website ?? '',
    description: h.description ?? '',
    specialization: h.specialization.join(', '),
    subscriptionPlan: h.subscriptionPlan,
  };
}
