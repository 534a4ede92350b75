import { z } from 'zod';
import { AnonymizationOptionsSchema } from './datasets.ts';
import { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';

export const AnonymizationOptionSchema = z.enum(ANONYMIZATION_OPTIONS);

/**
 * A hospital's de-identification policy, set by its admin: the options every upload gets, and which of them an
 * uploader may change. PUT /api/hospital-admin/deidentification-policy.
 */
export const DeidentificationPolicySchema = z
  .object({
    defaults: AnonymizationOptionsSchema.strict(),
    uploaderMayChange: z
      .array(AnonymizationOptionSchema)
      .max(ANONYMIZATION_OPTIONS.length)
      .refine((options) => new Set(options).size === options.length, 'Invalid input')
      .meta({ uniqueItems: true }),
  })
  .strict();
export type DeidentificationPolicy = z.infer<typeof DeidentificationPolicySchema>;

/** GET answer: the policy in force, with who set it last (null while the hospital runs on the defaults). */
export const DeidentificationPolicyResponseSchema = DeidentificationPolicySchema.extend({
  updatedAt: z.string().nullable(),
  updatedByUserId: z.string().nullable(),
});
export type DeidentificationPolicyResponse = z.infer<typeof DeidentificationPolicyResponseSchema>;

/**
 * Until an admin says otherwise: PS3.15 Annex E Basic Profile with Clean Descriptors and Retain Safe Private,
 * physician and institution identity removed, and no option an uploader may loosen.
 */
export const DEFAULT_DEIDENTIFICATION_POLICY: DeidentificationPolicy = {
  defaults: {
    retainPhysicianIdentity: false,
    retainInstitutionIdentity: false,
    retainUids: false,
    retainLongitudinalDates: false,
    retainPatientCharacteristics: false,
    keepPrivate: false,
  },
  uploaderMayChange: [],
};
