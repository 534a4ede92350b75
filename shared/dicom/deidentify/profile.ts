import annexE from './annex-e-2024b.json' with { type: 'json' };
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import {
  COMPOSITE_ACTIONS,
  attributeType,
  resolveComposite,
  type CompositeAction,
  type IodTypes,
} from './iod-types.ts';

/** One row of PS3.15 2024b Table E.1-1: the Basic Profile action and the option columns (K keep, C clean). */
export type AnnexERow = { tag: string; keyword: string; name: string; action: string; options: Record<string, string> };
export type OptionCategory =
  | 'dates'
  | 'descriptions'
  | 'device'
  | 'graphics'
  | 'institution'
  | 'modified-dates'
  | 'patient-characteristics'
  | 'safe-private'
  | 'structured-content'
  | 'uids';

export const ANNEX_E_EDITION = (annexE as { edition: string }).edition as '2024b';
export const ANNEX_E_ROWS: readonly AnnexERow[] = (annexE as unknown as { attributes: AnnexERow[] }).attributes;

/** Rows by GGGGEEEE; the repeating-group rows (50xx curves, 60xx overlays) and private attributes are handled by rule. */
export const ANNEX_E_BY_TAG: ReadonlyMap<string, AnnexERow> = new Map(
  ANNEX_E_ROWS.filter((row) => /^\([0-9A-F]{4},[0-9A-F]{4}\)$/.test(row.tag)).map((row) => [
    row.tag.replace(/[(),]/g, ''),
    row,
  ]),
);

/** PS3.16 CID 7050 "De-identification Method" codes (scheme DCM). */
export const DEIDENTIFICATION_CODES = {
  basicProfile: { value: '113100', meaning: 'Basic Application Confidentiality Profile' },
  cleanDescriptors: { value: '113105', meaning: 'Clean Descriptors Option' },
  retainLongitudinalFullDates: {
    value: '113106',
    meaning: 'Retain Longitudinal Temporal Information Full Dates Option',
  },
  retainLongitudinalModifiedDates: {
    value: '113107',
    meaning: 'Retain Longitudinal Temporal Information Modified Dates Option',
  },
  retainPatientCharacteristics: { value: '113108', meaning: 'Retain Patient Characteristics Option' },
  retainDeviceIdentity: { value: '113109', meaning: 'Retain Device Identity Option' },
  retainUids: { value: '113110', meaning: 'Retain UIDs Option' },
  retainSafePrivate: { value: '113111', meaning: 'Retain Safe Private Option' },
  retainInstitutionIdentity: { value: '113112', meaning: 'Retain Institution Identity Option' },
} as const;

export type DeidentificationCode = { value: string; meaning: string };

/** What the audit log records: the edition of the table and the codes each option adds. */
export const DEIDENTIFICATION_PROFILE = {
  edition: ANNEX_E_EDITION,
  standard: 'DICOM PS3.15 Annex E Table E.1-1',
  codingScheme: 'DCM',
  codes: DEIDENTIFICATION_CODES,
} as const;

/**
 * Physician identity is not a named option of the standard; this project offers it and keeps these person-name attributes of the table when it is chosen.
 */
export const PHYSICIAN_IDENTITY_KEYWORDS: ReadonlySet<string> = new Set(
  ANNEX_E_ROWS.filter((row) => /Physician|Operator|PerformingPhysician|RequestingPhysician/.test(row.keyword)).map(
    (row) => row.keyword,
  ),
);

/**
 * The descriptions Clean Descriptors keeps, cleaned by vocabulary (vocabulary.ts): names of the acquisition, the
 * series and the requested or performed procedure. Every other attribute the option marks C (comments, history,
 * occupation, reasons, diagnoses, allergies, notes, labels) is free text and takes its Basic Profile action.
 */
export const DESCRIPTOR_KEYWORDS: ReadonlySet<string> = new Set([
  'StudyDescription',
  'SeriesDescription',
  'ProtocolName',
  'RequestedSeriesDescription',
  'ClinicalTrialSeriesDescription',
  'PerformedProcedureStepDescription',
  'ScheduledProcedureStepDescription',
  'RequestedProcedureDescription',
  'AcquisitionDeviceProcessingDescription',
  'AcquisitionFieldOfViewLabel',
  'ContrastBolusAgent',
  'RequestedContrastAgent',
]);

/** Which private attributes stay: none (Basic Profile), the safe list (Retain Safe Private), or all of them. */
export type PrivateAttributes = 'none' | 'safe' | 'all';

/**
 * The upload options' private attribute choice: `removeAllPrivate` → none, else `keepAllPrivate` → all, else the safe
 * list (whatever `keepPrivate` says: keeping every private attribute takes the explicit `keepAllPrivate`).
 */
export function privateAttributesOf(
  options: Pick<AnonymizationOptions, 'keepAllPrivate' | 'removeAllPrivate'>,
): PrivateAttributes {
  if (options.removeAllPrivate) return 'none';
  if (options.keepAllPrivate) return 'all';
  return 'safe';
}

export type ResolvedProfile = {
  categories: ReadonlySet<OptionCategory>;
  retainPhysicianIdentity: boolean;
  privateAttributes: PrivateAttributes;
  codes: DeidentificationCode[];
  methodText: string[];
};

/** Maps the upload options onto the profile's named options. Clean Descriptors is always on. */
export function resolveProfile(options: AnonymizationOptions): ResolvedProfile {
  const privateAttributes = privateAttributesOf(options);
  const categories = new Set<OptionCategory>(['descriptions']);
  const codes: DeidentificationCode[] = [DEIDENTIFICATION_CODES.basicProfile, DEIDENTIFICATION_CODES.cleanDescriptors];
  if (privateAttributes === 'safe') {
    categories.add('safe-private');
    codes.push(DEIDENTIFICATION_CODES.retainSafePrivate);
  }
  if (options.retainLongitudinalDates) {
    categories.add('modified-dates');
    codes.push(DEIDENTIFICATION_CODES.retainLongitudinalModifiedDates);
  }
  if (options.retainPatientCharacteristics) {
    categories.add('patient-characteristics');
    codes.push(DEIDENTIFICATION_CODES.retainPatientCharacteristics);
  }
  if (options.retainUids) {
    categories.add('uids');
    codes.push(DEIDENTIFICATION_CODES.retainUids);
  }
  if (options.retainInstitutionIdentity) {
    categories.add('institution');
    codes.push(DEIDENTIFICATION_CODES.retainInstitutionIdentity);
  }
  const methodText = [
    `PS3.15 ${ANNEX_E_EDITION} Annex E Basic Profile`,
    ...codes.slice(1).map((code) => code.meaning.replace(/ Option$/, '')),
  ];
  if (options.retainPhysicianIdentity) methodText.push('Retain Physician Identity (project option)');
  if (privateAttributes === 'all') methodText.push('Retain All Private Attributes (project option)');
  return {
    categories,
    retainPhysicianIdentity: options.retainPhysicianIdentity,
    privateAttributes,
    codes,
    methodText,
  };
}

export type EffectiveAction = 'keep' | 'clean' | 'remove' | 'empty' | 'dummy' | 'uid';

/**
 * The action for one table row under the chosen options: an option's K (keep) wins over its C (clean), which wins over
 * the Basic Profile action. Composite actions of the table ("X/Z", "X/D", "Z/D", "X/Z/D", "X/Z/U*") depend on the IOD's
 * attribute type, so this context-free answer takes the variant any IOD accepts for a value (Z where allowed, else D;
 * U for UIDs); writing a file resolves them where each element sits, with `actionAt`.
 */
export function effectiveAction(row: AnnexERow, profile: ResolvedProfile, vr: string): EffectiveAction {
  // Looked up for every element of a file: the answer per row (and UI or not, for X/Z/U*) is kept per profile.
  const key = vr === 'UI' ? `${row.tag}|UI` : row.tag;
  let actions = ACTION_CACHE.get(profile);
  if (!actions) {
    actions = new Map();
    ACTION_CACHE.set(profile, actions);
  }
  let action = actions.get(key);
  if (!action) {
    action = resolveAction(row, profile, vr);
    actions.set(key, action);
  }
  return action;
}

const ACTION_CACHE = new WeakMap<ResolvedProfile, Map<string, EffectiveAction>>();

function resolveAction(row: AnnexERow, profile: ResolvedProfile, vr: string): EffectiveAction {
  const options = Object.entries(row.options).filter(([category]) =>
    profile.categories.has(category as OptionCategory),
  );
  if (options.some(([, value]) => value === 'K')) return 'keep';
  if (profile.retainPhysicianIdentity && PHYSICIAN_IDENTITY_KEYWORDS.has(row.keyword)) return 'keep';
  if (options.some(([, value]) => value === 'C')) return 'clean';
  return basicAction(row, vr);
}

/** Where an element sits: the object's IOD types, the tags of the sequences around it, its own tag and kind. */
export type Place = { iod: IodTypes | undefined; path: readonly string[]; tag: string; sequence: boolean };

/**
 * The action for one table row at one place in a file: options as in `effectiveAction`, and a composite Basic Profile
 * action resolved by the attribute's type there (iod-types.ts, PS3.15 E.3.1); 'items' keeps a sequence's items, each
 * de-identified in turn.
 */
export function actionAt(
  row: AnnexERow,
  profile: ResolvedProfile,
  vr: string,
  place: Place,
): EffectiveAction | CompositeAction {
  const action = effectiveAction(row, profile, vr);
  if (action === 'keep' || action === 'clean') return action;
  return basicActionAt(row, vr, place);
}

/** The Basic Profile column at one place: a composite action resolved by the attribute's type there. */
export function basicActionAt(row: AnnexERow, vr: string, place: Place): EffectiveAction | CompositeAction {
  if (!COMPOSITE_ACTIONS.has(row.action)) return basicAction(row, vr);
  return resolveComposite(row.action, attributeType(place.iod, place.path, place.tag), vr, place.sequence, place.tag);
}

/** The Basic Profile column alone, composite actions resolved as described on effectiveAction. */
export function basicAction(row: AnnexERow, vr: string): EffectiveAction {
  switch (row.action) {
    case 'X':
      return 'remove';
    case 'Z':
      return 'empty';
    case 'D':
      return 'dummy';
    case 'U':
      return 'uid';
    case 'X/Z':
    case 'X/Z/D':
    case 'Z/D':
      return 'empty';
    case 'X/D':
      return 'dummy';
    case 'X/Z/U*':
      return vr === 'UI' ? 'uid' : 'empty';
    default:
      return 'remove';
  }
}
