import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { machineSecret } from './machine-secret.ts';

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

/**
 * The keyed-hash secret: IWS_SECRET when set, else this machine's own random secret (made on first use and kept in the
 * user's config folder, README.md "iws"). Never a secret published anywhere: pseudonyms and date shifts keyed with
 * one could be recomputed by anyone.
 */
export function secretFromEnvironment(command: string): string {
  const secret = process.env.IWS_SECRET;
  if (secret) return secret;
  const kept = machineSecret();
  if (kept.created)
    process.stderr.write(
      `iws ${command}: IWS_SECRET is not set; made a random secret for this machine and kept it in ${kept.path} ` +
        `(readable by you only). The same secret gives the same pseudonyms and date shifts: keep the file to link ` +
        `later runs, or set IWS_SECRET to name another.\n`,
    );
  return kept.secret;
}
