import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';

/** Development-only secret, used when IWS_SECRET is unset; UIDs made with it are not protected by a secret. */
export const DEVELOPMENT_SECRET = 'iws-development-secret-not-for-real-data';

/** The de-identification flags shared by `iws anonymize` and `iws process` (parseArgs options). */
export const DEIDENTIFICATION_FLAGS = {
  'retain-physician': { type: 'boolean', default: false },
  'retain-institution': { type: 'boolean', default: false },
  'retain-uids': { type: 'boolean', default: false },
  'retain-dates': { type: 'boolean', default: false },
  'keep-private': { type: 'boolean', default: false },
  'keep-all-private': { type: 'boolean', default: false },
  'remove-private': { type: 'boolean', default: false },
  hospital: { type: 'string', default: 'cli' },
} as const;

type DeidentificationFlagValues = {
  'retain-physician'?: boolean;
  'retain-institution'?: boolean;
  'retain-uids'?: boolean;
  'retain-dates'?: boolean;
  'keep-private'?: boolean;
  'keep-all-private'?: boolean;
  'remove-private'?: boolean;
};

export function anonymizationFromFlags(values: DeidentificationFlagValues): AnonymizationOptions {
  return AnonymizationOptionsSchema.parse({
    retainPhysicianIdentity: values['retain-physician'],
    retainInstitutionIdentity: values['retain-institution'],
    retainUids: values['retain-uids'],
    retainLongitudinalDates: values['retain-dates'],
    keepPrivate: values['keep-private'],
    // Rare choices stay absent unless asked for, as in a dataset created through the API.
    ...(values['keep-all-private'] ? { keepAllPrivate: true } : {}),
    ...(values['remove-private'] ? { removeAllPrivate: true } : {}),
  });
}

/** The keyed-hash secret from IWS_SECRET, or the development secret with a warning on stderr. */
export function secretFromEnvironment(command: string): string {
  const secret = process.env.IWS_SECRET;
  if (secret) return secret;
  process.stderr.write(
    `iws ${command}: IWS_SECRET is not set; using the development secret (do not use for real data)\n`,
  );
  return DEVELOPMENT_SECRET;
}
