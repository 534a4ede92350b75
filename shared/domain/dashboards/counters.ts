import type { PipelineCounters } from '#shared/domain/auth/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';

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
