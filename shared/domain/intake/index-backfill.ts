import type { Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { startHospitalAdminJob } from '#shared/domain/jobs/hospital-job.ts';
import type { JobKindHandler, JobRunnerDeps, JobStartDeps } from '#shared/domain/jobs/runner.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';
import { indexStoredDataset, type IndexDeps } from './dicom-index.ts';

/** Datasets one chunk of the backfill indexes (each: its series items, a listing and a header bundle per series). */
export const INDEX_BACKFILL_CHUNK = 25;

/**
 * Builds the DICOMweb index of the datasets a hospital stored before the index existed (docs/dicom-intake.md#the-dicomweb-index):
 * a job (docs/jobs.md) a hospital admin starts once, `POST /api/integrations/dicomweb-index`; 202 with the job.
 */
export function startIndexBackfill(caller: Caller, deps: JobStartDeps): Promise<JobAccepted> {
  return startHospitalAdminJob('DICOMWEB_INDEX', caller, deps);
}

type BackfillDeps = IndexDeps & { datasets: Pick<DatasetRepository, 'list' | 'listSeries'> } & JobRunnerDeps;

/**
 * The backfill's kind: a chunk is a page of the hospital's datasets (the by-creation index, never a scan), an item one
 * dataset. A dataset past de-identification gets its items written (indexStoredDataset, which replaces what is
 * there, so a chunk run again writes the same items); one not yet de-identified is skipped, as the pipeline indexes it
 * when it gets there. Datasets in the recycle bin are not listed; a restored one is indexed by running the job again.
 */
export const dicomwebIndexJob: JobKindHandler<BackfillDeps> = {
  itemsAtOnce: 4,
  async chunk(job, cursor, deps) {
    const page = await deps.datasets.list({
      hospitalId: job.hospitalId,
      limit: INDEX_BACKFILL_CHUNK,
      startKey: cursor ? (JSON.parse(cursor) as Record<string, string>) : undefined,
    });
    return {
      items: page.items.map((dataset, i) => ({ seq: job.processed + i + 1, subject: dataset.id, value: dataset })),
      next: page.lastKey ? JSON.stringify(page.lastKey) : null,
    };
  },
  async run(_job, item, deps) {
    const dataset = item.value as DatasetRecord;
    if (!dataset.deidentifiedAt) return { outcome: 'SKIPPED' };
    await indexStoredDataset(dataset, deps);
    return { outcome: 'SUCCEEDED' };
  },
};
