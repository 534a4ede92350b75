import type { Dataset, ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import type { AssetRecord, DatasetRecord, SeriesRecord } from './ports.ts';

/** The API shape of a stored dataset: bookkeeping fields stay on the server. */
export function toDataset(record: DatasetRecord): Dataset {
  const {
    uploadSessionId: _s,
    searchText: _t,
    deidentifiedAt: _d,
    lastRunId: _r,
    storageCountedBytes: _b,
    storageBytes: _m,
    processingStartedAt: _p,
    completedAt: _c,
    ...dataset
  } = record;
  return dataset;
}

export function toSeries(record: SeriesRecord): Series {
  const { hospitalId: _h, studyInstanceUID: _u, fileCount: _c, ...series } = record;
  return series;
}

export function toAsset(record: AssetRecord, url?: string): ProcessedAsset {
  const { hospitalId: _h, bucket: _b, objectKey: _k, ...asset } = record;
  return url ? { ...asset, url } : asset;
}

/** Lower-cased text the list search matches (never the MRN; the alias is a hash). */
export function searchTextOf(
  d: Pick<
    Dataset,
    | 'studyDescription'
    | 'clinicalIndication'
    | 'department'
    | 'ownerName'
    | 'patientAlias'
    | 'orderingPhysician'
    | 'id'
    | 'studyType'
  >,
): string {
  return [
    d.studyDescription,
    d.clinicalIndication,
    d.department,
    d.ownerName,
    d.patientAlias,
    d.orderingPhysician,
    d.id,
    d.studyType,
  ]
    .join(' ')
    .toLowerCase();
}
