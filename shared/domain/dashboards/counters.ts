import type { ComplianceCounters, PipelineCounters, RetainedOptionCounter } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';

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
