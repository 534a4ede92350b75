import type {
  ComplianceCounters,
  OversightCounters,
  PatientShareStatusCounter,
  PipelineCounters,
  RetainedOptionCounter,
  UserRecord,
  UserStatusCounter,
} from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';
import { USER_STATUSES, type UserStatus } from '#shared/vocabulary/users.ts';
import { PATIENT_SHARE_STATUSES, type PatientShareStatus } from '#shared/schemas/api/shares.ts';

/** The counters a dashboard reads instead of listing datasets (docs/domain.md#counters). */
export const PIPELINE_COUNTER_NAMES = [
  'queuedCount',
  'processingCount',
  'completedCount',
  'failedCount',
  'patientCount',
] as const;

export type PipelineGroupCounter = Exclude<keyof PipelineCounters, 'patientCount'>;

/**
 * "Processing Pipeline Status" groups (docs/screens.md#dashboard): uploading is Queued; anonymizing, classifying and
 * processing are Processing; complete is Completed; failed is Failed. Drafts (CREATED) are in no group.
 */
export function pipelineCounter(status: DatasetStatus): PipelineGroupCounter | undefined {
  if (status === 'UPLOADING') return 'queuedCount';
  if (status === 'ANONYMIZING' || status === 'CLASSIFYING' || status === 'PROCESSING') return 'processingCount';
  if (status === 'COMPLETE') return 'completedCount';
  if (status === 'FAILED') return 'failedCount';
  return undefined;
}

/** The deltas of a status change: out of the old group, into the new; none when both are in the same group. */
export function pipelineDeltas(from: DatasetStatus | undefined, to: DatasetStatus | undefined) {
  const out = from ? pipelineCounter(from) : undefined;
  const into = to ? pipelineCounter(to) : undefined;
  const deltas: Partial<Record<PipelineGroupCounter, number>> = {};
  if (out === into) return deltas;
  if (out) deltas[out] = -1;
  if (into) deltas[into] = 1;
  return deltas;
}

/** Moves the hospital's and the team's pipeline counters with a dataset's status change. */
export async function movePipelineCounters(
  organisation: OrganisationCounters,
  dataset: { hospitalId: string; teamId?: string | null },
  from: DatasetStatus | undefined,
  to: DatasetStatus | undefined,
): Promise<void> {
  const deltas = pipelineDeltas(from, to);
  if (Object.keys(deltas).length === 0) return;
  await organisation.add(dataset.hospitalId, { kind: 'hospital' }, deltas);
  if (dataset.teamId) await organisation.add(dataset.hospitalId, { kind: 'team', teamId: dataset.teamId }, deltas);
}

/** Counts a patient alias once per hospital, once per team and once over every hospital. */
export async function countPatient(
  organisation: OrganisationCounters,
  dataset: { hospitalId: string; teamId?: string | null; patientAlias: string },
): Promise<void> {
  if (await organisation.markPatient(dataset.hospitalId, 'hospital', dataset.patientAlias)) {
    await organisation.add(dataset.hospitalId, { kind: 'hospital' }, { patientCount: 1 });
    await organisation.addSummary({ patients: 1 });
  }
  if (dataset.teamId && (await organisation.markPatient(dataset.hospitalId, dataset.teamId, dataset.patientAlias)))
    await organisation.add(dataset.hospitalId, { kind: 'team', teamId: dataset.teamId }, { patientCount: 1 });
}

/** Every compliance counter of the hospital item (docs/domain.md#counters). */
export const COMPLIANCE_COUNTER_NAMES = [
  'deidentifiedCount',
  'basicProfileOnlyCount',
  'seriesHeldCount',
  'seriesReleasedCount',
  'datasetsWithHeldSeriesCount',
  ...ANONYMIZATION_OPTIONS.map((option) => retainedOptionCounter(option)),
] as const satisfies readonly (keyof ComplianceCounters)[];

export function retainedOptionCounter(option: (typeof ANONYMIZATION_OPTIONS)[number]): RetainedOptionCounter {
  return `retained_${option}`;
}

/**
 * What one live dataset adds to the hospital's compliance counters (docs/domain.md#counters), or takes away with
 * `sign` -1: nothing until it is de-identified; then one de-identified dataset, one for each option it kept (or one of
 * the basic profile alone), and its series held for burned-in text and released.
 */
export function complianceDeltas(
  dataset: Pick<DatasetRecord, 'deidentifiedAt' | 'anonymization'>,
  series: readonly SeriesRecord[],
  sign: 1 | -1,
): Partial<Record<keyof ComplianceCounters, number>> {
  if (!dataset.deidentifiedAt) return {};
  const kept = ANONYMIZATION_OPTIONS.filter((option) => dataset.anonymization[option] === true);
  const held = series.filter(isHeldForBurnedInText).length;
  const released = series.filter((s) => s.burnedInText?.releasedAt !== undefined).length;
  const deltas: Partial<Record<keyof ComplianceCounters, number>> = {
    deidentifiedCount: sign,
    seriesHeldCount: sign * held,
    seriesReleasedCount: sign * released,
    datasetsWithHeldSeriesCount: held > 0 ? sign : 0,
  };
  if (kept.length === 0) deltas.basicProfileOnlyCount = sign;
  for (const option of kept) deltas[retainedOptionCounter(option)] = sign;
  return deltas;
}

/**
 * A held series released (as it was, or redacted): one series less held and one more released; the dataset leaves
 * the datasets with held series when no other series of it is still held.
 */
export async function countSeriesRelease(
  organisation: OrganisationCounters,
  hospitalId: string,
  othersStillHeld: boolean,
): Promise<void> {
  await organisation.add(
    hospitalId,
    { kind: 'hospital' },
    { seriesHeldCount: -1, seriesReleasedCount: 1, ...(othersStillHeld ? {} : { datasetsWithHeldSeriesCount: -1 }) },
  );
}

export const userStatusCounter = (status: UserStatus): UserStatusCounter => `users_${status}`;
export const patientShareCounter = (status: PatientShareStatus): PatientShareStatusCounter => `patientShares_${status}`;

/** Every counter of the hospital's users and patient shares (docs/domain.md#counters). */
export const OVERSIGHT_COUNTER_NAMES = [
  ...USER_STATUSES.map(userStatusCounter),
  'twoFactorUserCount',
  ...PATIENT_SHARE_STATUSES.map(patientShareCounter),
] as const satisfies readonly (keyof OversightCounters)[];

type OversightDeltas = Partial<Record<keyof OversightCounters, number>>;

const withoutZeros = (deltas: Record<string, number>): OversightDeltas =>
  Object.fromEntries(Object.entries(deltas).filter(([, v]) => v !== 0));

/** The user counts with two-factor: ACTIVE with `twoFactorSince` set (docs/domain.md#oversight-figures). */
const withTwoFactor = (user: CountedUser | undefined) =>
  user?.status === 'ACTIVE' && user.twoFactorSince !== undefined ? 1 : 0;

export type CountedUser = Pick<UserRecord, 'status' | 'twoFactorSince'>;

/**
 * What a user item's change does to the hospital's user counters: `before` undefined for a new user, `after`
 * undefined for a removed one. Out of the old status, into the new; two-factor follows ACTIVE and `twoFactorSince`.
 */
export function userCounterDeltas(before: CountedUser | undefined, after: CountedUser | undefined): OversightDeltas {
  const deltas: Record<string, number> = {};
  const bump = (name: string, by: number) => (deltas[name] = (deltas[name] ?? 0) + by);
  if (before) bump(userStatusCounter(before.status), -1);
  if (after) bump(userStatusCounter(after.status), 1);
  bump('twoFactorUserCount', withTwoFactor(after) - withTwoFactor(before));
  return withoutZeros(deltas);
}

/** Moves the hospital's user counters with a user item's change (one UpdateItem ADD; none when nothing moved). */
export async function moveUserCounters(
  organisation: Pick<OrganisationCounters, 'add'>,
  hospitalId: string,
  before: CountedUser | undefined,
  after: CountedUser | undefined,
): Promise<void> {
  const deltas = userCounterDeltas(before, after);
  if (Object.keys(deltas).length > 0) await organisation.add(hospitalId, { kind: 'hospital' }, deltas);
}

/** What a patient share's stored status change does to the hospital's share counters (undefined: none stored). */
export function patientShareCounterDeltas(
  before: PatientShareStatus | undefined,
  after: PatientShareStatus | undefined,
): OversightDeltas {
  const deltas: Record<string, number> = {};
  const bump = (name: string, by: number) => (deltas[name] = (deltas[name] ?? 0) + by);
  if (before) bump(patientShareCounter(before), -1);
  if (after) bump(patientShareCounter(after), 1);
  return withoutZeros(deltas);
}

/** Moves the hospital's share counters with a patient share's stored status (none when it stayed). */
export async function movePatientShareCounters(
  organisation: Pick<OrganisationCounters, 'add'>,
  hospitalId: string,
  before: PatientShareStatus | undefined,
  after: PatientShareStatus | undefined,
): Promise<void> {
  const deltas = patientShareCounterDeltas(before, after);
  if (Object.keys(deltas).length > 0) await organisation.add(hospitalId, { kind: 'hospital' }, deltas);
}
