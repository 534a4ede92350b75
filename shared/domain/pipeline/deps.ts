import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import type { DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type { DicomIndex } from '#shared/domain/intake/dicom-index.ts';

/** Ports of the pipeline stages. */
export type PipelineDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  objects: ObjectStore;
  uploads: UploadRepository;
  clock: Clock;
  pseudonymSecret(): Promise<string>;
  /** The owner's inbox for "processing complete / failed"; absent where nobody is told (the CLI). */
  notifications?: NotificationInbox;
  /** The dashboards' counters (docs/domain.md#counters); absent where none are kept (the CLI). */
  organisation?: OrganisationCounters;
  /** The DICOMweb index the de-identified copies are entered in (docs/dicom-intake.md#the-dicomweb-index); absent where
   * nothing serves DICOMweb (the CLI). */
  dicomIndex?: DicomIndex;
};

export type StageInput = { hospitalId: string; datasetId: string; runId: string };
/** The input of a stage in a series' branch of the Map state. */
export type SeriesStageInput = StageInput & { seriesId: string };

/** The series a branch works on; a series removed meanwhile is an error of that branch alone. */
export async function loadSeries(deps: PipelineDeps, input: SeriesStageInput): Promise<SeriesRecord> {
  const series = (await deps.datasets.listSeries(input.hospitalId, input.datasetId)).find(
    (s) => s.id === input.seriesId,
  );
  if (!series) throw new NotFoundError('SERIES_NOT_FOUND');
  return series;
}

export async function loadDataset(deps: PipelineDeps, input: StageInput): Promise<DatasetRecord> {
  const dataset = await deps.datasets.get(input.hospitalId, input.datasetId);
  if (!dataset) throw new NotFoundError('DATASET_NOT_FOUND');
  return dataset;
}

/** The statuses a run moves a dataset through, in order. */
const RUN_ORDER: readonly DatasetStatus[] = ['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING', 'COMPLETE'];

/** The dataset is at `to` or past it in the run's order (a run started again after a stop finds it there). */
function reached(status: DatasetStatus, to: DatasetStatus): boolean {
  const at = RUN_ORDER.indexOf(status);
  return status === to || (at >= 0 && at > RUN_ORDER.indexOf(to));
}

/**
 * Enters a stage: moves `from` → `to` (conditional, audited). A retry of the same stage finds the dataset
 * already in `to` and goes on without a second transition, which keeps each stage idempotent. Series' branches
 * run side by side: the first to enter makes the move, and one that loses the race to it finds `to` and goes on.
 * An execution started again from its first state (a redrive or a new execution of the same run)
 * finds the dataset past this stage: it goes on without moving it back, each stage's work being repeatable.
 */
export async function enterStage(
  deps: PipelineDeps,
  input: StageInput,
  from: DatasetStatus,
  to: DatasetStatus,
): Promise<DatasetRecord> {
  const dataset = await loadDataset(deps, input);
  if (reached(dataset.status, to)) return dataset;
  try {
    return await moveStage(deps, input, from, to);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const again = await loadDataset(deps, input);
    if (reached(again.status, to)) return again;
    throw error;
  }
}

async function moveStage(
  deps: PipelineDeps,
  input: StageInput,
  from: DatasetStatus,
  to: DatasetStatus,
): Promise<DatasetRecord> {
  const now = deps.clock.now();
  // When the pipeline took the dataset and when it finished: the reports' processing times (docs/domain.md#oversight-figures).
  const timing = to === 'ANONYMIZING' ? { processingStartedAt: now } : to === 'COMPLETE' ? { completedAt: now } : {};
  return changeStatus(deps, {
    hospitalId: input.hospitalId,
    datasetId: input.datasetId,
    from: [from],
    to,
    ...PIPELINE_ACTOR,
    fields: { updatedAt: now, ...timing },
    details: { runId: input.runId },
  });
}

/**
 * Objects read at most this many at a time: a series' files are small and many, so their reads overlap instead of
 * paying one round trip after another, while memory stays at a few files beyond what the caller keeps.
 */
export const OBJECT_READ_CONCURRENCY = 8;

/** `fn` over `items`, at most `limit` at once; the results in the order of `items`. */
export async function mapInOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Files of one de-identified series, read from the studies bucket (a few at a time), in key order. */
export async function readSeriesFiles(
  deps: PipelineDeps,
  hospitalId: string,
  datasetId: string,
  seriesUID: string,
): Promise<{ name: string; bytes: Uint8Array }[]> {
  const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, seriesUID));
  return mapInOrder(objects, OBJECT_READ_CONCURRENCY, async (object) => ({
    name: object.key.slice(object.key.lastIndexOf('/') + 1),
    bytes: await deps.objects.get('studies', object.key),
  }));
}
