/** Names of the de-identification options (docs/domain.md#options), as the compliance center lists them. */
export const OPTION_LABELS: Record<string, string> = {
  retainPhysicianIdentity: 'Physician identity kept',
  retainInstitutionIdentity: 'Institution identity kept',
  retainUids: 'UIDs kept',
  retainLongitudinalDates: 'Dates kept',
  retainPatientCharacteristics: 'Patient characteristics kept',
  keepPrivate: 'Safe private attributes kept',
  keepAllPrivate: 'All private attributes kept',
  removeAllPrivate: 'All private attributes removed',
};

/** The HIPAA toggles as the hospital settings page names them (docs/screens.md#compliance-center). */
export const HIPAA_LABELS: Record<string, string> = {
  anonymizeByDefault: 'Anonymize by default',
  hashIds: 'Hash IDs',
  regenerateUIDs: 'Regenerate UIDs',
  removePrivateTags: 'Remove private tags',
};
