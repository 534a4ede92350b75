/** The de-identification options of an upload and a hospital's policy: plain words, no schema. */

/** De-identification options offered at upload, all off by default (docs/domain.md#options). */
export type AnonymizationOptions = {
  retainPhysicianIdentity: boolean;
  retainInstitutionIdentity: boolean;
  retainUids: boolean;
  retainLongitudinalDates: boolean;
  retainPatientCharacteristics: boolean;
  /**
   * Private attributes: the safe list (Retain Safe Private, the vendor attributes diffusion and geometry need) is kept
   * by default, and `keepPrivate` keeps that list too. Every private attribute takes the explicit `keepAllPrivate`;
   * `removeAllPrivate` (the Basic Profile alone) wins over both. Booleans, so policies and reports read them as flags.
   */
  keepPrivate: boolean;
  keepAllPrivate?: boolean | undefined;
  removeAllPrivate?: boolean | undefined;
};
export type AnonymizationOption = keyof AnonymizationOptions;
export const ANONYMIZATION_OPTIONS = [
  'retainPhysicianIdentity',
  'retainInstitutionIdentity',
  'retainUids',
  'retainLongitudinalDates',
  'retainPatientCharacteristics',
  'keepPrivate',
  'keepAllPrivate',
  'removeAllPrivate',
] as const satisfies readonly AnonymizationOption[];

/**
 * What the engine does with private attributes. The API's `keepPrivate` chooses between the first two (false: Retain
 * Safe Private, the default; true: keep all); 'none' (remove every private attribute) has no API option yet.
 */
export const PRIVATE_ATTRIBUTE_CHOICES = ['safe', 'all', 'none'] as const;
export type PrivateAttributes = (typeof PRIVATE_ATTRIBUTE_CHOICES)[number];
export function privateAttributesOf(options: Pick<AnonymizationOptions, 'keepPrivate'>): PrivateAttributes {
  return options.keepPrivate ? 'all' : 'safe';
}

/**
 * The HIPAA switches of the hospital settings' compliance tab. They are a view of the hospital's de-identification
 * policy, not flags of their own (docs/domain.md#hipaa-switches): regenerate UIDs is the defaults' `retainUids` off,
 * remove private tags is their `removeAllPrivate`. The other two are not a choice and show as fixed on: every upload is
 * de-identified with the policy's defaults, and a patient's ids are always replaced by a keyed hash.
 */
export const HIPAA_TOGGLES = ['anonymizeByDefault', 'hashIds', 'regenerateUIDs', 'removePrivateTags'] as const;
export type HipaaToggle = (typeof HIPAA_TOGGLES)[number];
export const FIXED_HIPAA_TOGGLES = ['anonymizeByDefault', 'hashIds'] as const satisfies readonly HipaaToggle[];
export type PolicyHipaaToggle = Exclude<HipaaToggle, (typeof FIXED_HIPAA_TOGGLES)[number]>;
