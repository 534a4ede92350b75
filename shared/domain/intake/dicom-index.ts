import { toDicomJson, transferSyntaxOf, type DicomJsonDataset } from '#shared/dicom/dicom-json.ts';
import { unpackHeaders } from '#shared/dicom/header-bundle.ts';
import { TAG } from '#shared/dicom/tags.ts';
import type { DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';

/**
 * The DICOMweb index (docs/dicom-intake.md#the-dicomweb-index): what QIDO-RS matches and WADO-RS locates, written when a
 * dataset's de-identified copies are stored, so a search or a retrieval reads the items its keys name instead of every
 * dataset and file of the hospital. One item per copy: a study, series or instance stored in two datasets (sent again
 * after its commit) has an item for each, side by side under the same UID, and the reads merge them as the guards
 * allow (the newest visible copy is served). The items locate; whether a copy may be read (team, recycle bin, held
 * series) is decided at read time from the dataset and series items, by the same guards as every other read.
 */

/** The order of a dataset's copies among others of the same UID: its creation time then its id (newest last). */
export const copyRank = (dataset: Pick<DatasetRecord, 'createdAt' | 'id'>) => `${dataset.createdAt}#${dataset.id}`;

/** QIDO-RS matching attributes of PS3.18 Table 10.6.1-5 kept on each level's item, by tag. */
export const INDEXED_TAGS = {
  study: [
    TAG.StudyDate,
    '00080030', // StudyTime
    '00080050', // AccessionNumber
    '00080090', // ReferringPhysicianName
    TAG.PatientName,
    TAG.PatientID,
    '00100030', // PatientBirthDate
    '00100040', // PatientSex
    TAG.StudyInstanceUID,
    '00200010', // StudyID
    TAG.StudyDescription,
  ],
  series: [
    TAG.Modality,
    TAG.SeriesInstanceUID,
    TAG.SeriesNumber,
    TAG.SeriesDescription,
    '00400244', // PerformedProcedureStepStartDate
    '00400245', // PerformedProcedureStepStartTime
  ],
  instance: [
    TAG.SOPClassUID,
    TAG.SOPInstanceUID,
    TAG.InstanceNumber,
    '00280010', // Rows
    '00280011', // Columns
    '00280100', // BitsAllocated
    '00280008', // NumberOfFrames
  ],
} as const;

type CopyFields = {
  hospitalId: string;
  datasetId: string;
  /** copyRank of the dataset. */
  rank: string;
  studyUID: string;
  /** The level's matching attributes (INDEXED_TAGS) as DICOM JSON. */
  attributes: DicomJsonDataset;
  /** A de-identified instance of this copy: where attributes the index does not keep are read (includefield=all). */
  objectKey: string;
};

/** A study's copy in one dataset: its series there, with their modality and instance count. */
export type IndexedStudy = CopyFields & {
  series: Record<string, { modality: string; instances: number }>;
};
export type IndexedSeries = CopyFields & { seriesUID: string; instances: number };
export type IndexedInstance = CopyFields & {
  seriesUID: string;
  sopUID: string;
  size: number;
  transferSyntaxUID: string;
};

/** Which index items a read asks for; every query stays in one hospital's partitions. */
export type IndexQuery =
  | { level: 'study'; studyUID?: string }
  | { level: 'study'; studyDate: { from: string; to: string } }
  | { level: 'study'; patientId: string }
  | { level: 'study'; accessionNumber: string }
  | { level: 'series'; studyUID?: string; seriesUID?: string }
  | { level: 'instance'; studyUID?: string; seriesUID?: string; sopUID?: string };

export type IndexItemOf<Q extends IndexQuery> = Q['level'] extends 'study'
  ? IndexedStudy
  : Q['level'] extends 'series'
    ? IndexedSeries
    : IndexedInstance;

/** One page of index items in key order (the copies of a UID side by side, oldest first); `next` continues it. */
export type IndexPage<T> = { items: T[]; next?: Record<string, unknown> };

/** A copy's dataset and series, as the read guards check them. */
export type CopyRef = { datasetId: string; seriesUID: string };
export type GuardItems = {
  /** The live datasets found (one in the recycle bin is absent, as the repository's get answers none for it). */
  datasets: Map<string, DatasetRecord>;
  /** The series items found, by `<datasetId>#<seriesUID>`. */
  series: Map<string, SeriesRecord>;
};

export type DicomIndex = {
  /**
   * The dataset and series items of many copies in few reads (BatchGetItem by their keys), so a page of matches is
   * guarded without one read per match (docs/dicom-intake.md#the-dicomweb-index).
   */
  guardItems(hospitalId: string, refs: readonly CopyRef[]): Promise<GuardItems>;
  /** Writes (replaces) the items of one dataset's copies; a write repeated gives the same items. */
  put(items: { studies: IndexedStudy[]; series: IndexedSeries[]; instances: IndexedInstance[] }): Promise<void>;
  query<Q extends IndexQuery>(
    hospitalId: string,
    query: Q,
    page: { limit: number; startKey?: Record<string, unknown> },
  ): Promise<IndexPage<IndexItemOf<Q>>>;
};

function pick(json: DicomJsonDataset, tags: readonly string[]): DicomJsonDataset {
  const out: DicomJsonDataset = {};
  for (const tag of tags) {
    const attribute = json[tag];
    if (!attribute) continue;
    // Only what DICOM JSON values can hold in a table item: strings, numbers and person names (no undefined).
    out[tag] = JSON.parse(JSON.stringify(attribute)) as DicomJsonDataset[string];
  }
  return out;
}

function text(json: DicomJsonDataset, tag: string): string {
  const value = json[tag]?.Value?.[0];
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? String((value as { Alphabetic?: string }).Alphabetic ?? '') : String(value);
}

export type IndexDeps = {
  datasets: Pick<DatasetRepository, 'listSeries'>;
  objects: Pick<ObjectStore, 'list' | 'get'>;
  dicomIndex: DicomIndex;
};

/** One stored de-identified file: its object key, size and header (a Part 10 file up to its Pixel Data). */
export type StoredCopy = { key: string; size: number; header: Uint8Array };

/**
 * The index items of one de-identified dataset: per series (by SeriesInstanceUID) the files it stored, in key order.
 * Pure: the de-identify stage passes what it has just written, the backfill what it reads back.
 */
export function indexItemsOf(
  dataset: Pick<DatasetRecord, 'hospitalId' | 'id' | 'createdAt'>,
  seriesFiles: ReadonlyMap<string, readonly StoredCopy[]>,
): { studies: IndexedStudy[]; series: IndexedSeries[]; instances: IndexedInstance[] } {
  const { hospitalId, id: datasetId } = dataset;
  const rank = copyRank(dataset);
  const studies = new Map<string, IndexedStudy>();
  const series: IndexedSeries[] = [];
  const instances: IndexedInstance[] = [];
  // In UID order, so the study item (its attributes are its first series') is the same whoever writes it.
  const ordered = [...seriesFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [seriesUID, files] of ordered) {
    const [head] = files;
    if (!head) continue;
    const first = toDicomJson(head.header);
    const studyUID = text(first, TAG.StudyInstanceUID);
    if (!studyUID) continue;
    for (const file of files) {
      const json = file === head ? first : toDicomJson(file.header);
      instances.push({
        hospitalId,
        datasetId,
        rank,
        studyUID,
        seriesUID,
        sopUID: file.key.slice(file.key.lastIndexOf('/') + 1, -'.dcm'.length),
        attributes: pick(json, INDEXED_TAGS.instance),
        objectKey: file.key,
        size: file.size,
        transferSyntaxUID: transferSyntaxOf(file.header),
      });
    }
    series.push({
      hospitalId,
      datasetId,
      rank,
      studyUID,
      seriesUID,
      attributes: pick(first, INDEXED_TAGS.series),
      objectKey: head.key,
      instances: files.length,
    });
    const study = studies.get(studyUID) ?? {
      hospitalId,
      datasetId,
      rank,
      studyUID,
      attributes: pick(first, INDEXED_TAGS.study),
      objectKey: head.key,
      series: {},
    };
    study.series[seriesUID] = { modality: text(first, TAG.Modality), instances: files.length };
    studies.set(studyUID, study);
  }
  return { studies: [...studies.values()], series, instances };
}

/**
 * Builds and writes the index items of one de-identified dataset from what it stored: its series items, the objects
 * under each series (key and size) and the series' header bundle (docs/pipeline.md#series-headers), whose headers are
 * in the key order of the series' files. What the backfill job runs per dataset; idempotent.
 */
export async function indexStoredDataset(dataset: DatasetRecord, deps: IndexDeps): Promise<{ instances: number }> {
  const { hospitalId, id: datasetId } = dataset;
  const seriesFiles = new Map<string, StoredCopy[]>();
  for (const record of await deps.datasets.listSeries(hospitalId, datasetId)) {
    const objects = (await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, record.id)))
      .filter((o) => o.key.endsWith('.dcm'))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (objects.length === 0) continue;
    const headers = unpackHeaders(
      await deps.objects.get('studies', studyKeys.seriesHeaders(hospitalId, datasetId, record.id)),
    );
    seriesFiles.set(
      record.seriesInstanceUID,
      objects.flatMap((o, i) => (headers[i] ? [{ key: o.key, size: o.size, header: headers[i] }] : [])),
    );
  }
  const items = indexItemsOf(dataset, seriesFiles);
  await deps.dicomIndex.put(items);
  return { instances: items.instances.length };
}
