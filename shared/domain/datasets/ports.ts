import type { Dataset, LegalHold, ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import type { BucketName } from '#shared/domain/storage.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';

/** A dataset as stored: the API shape plus bookkeeping that never leaves the server. */
export type DatasetRecord = Dataset & {
  uploadSessionId?: string;
  /** Lower-cased searchable text (description, indication, department, owner, alias); never the MRN. */
  searchText: string;
  /** Set once de-identified copies are stored and raw uploads deleted, so a retried pipeline skips that stage. */
  deidentifiedAt?: string;
  lastRunId?: string;
  /** Bytes this dataset added to its hospital's and team's storageUsedBytes (docs/domain.md#counters). */
  storageCountedBytes?: number;
  /** What it held in each bucket when last metered (docs/domain.md#usage-and-billing). */
  storageBytes?: Record<BucketName, number>;
  /** When the pipeline last took the dataset (entered ANONYMIZING) and when it last completed. */
  processingStartedAt?: string;
  completedAt?: string;
} & Partial<RecycleBinFields>;

/** Set while a dataset lies in the recycle bin (docs/domain.md#recycle-bin); absent on a live dataset. */
export type RecycleBinFields = {
  deletedAt: string;
  /** When the purge step may remove it for good: deletedAt + RECYCLE_BIN_DAYS. */
  purgeAfter: string;
  deletedByUserId: string;
  deletedByName: string;
  /** The reason given with a manual delete, or 'retention'. */
  deletionReason: string;
};

export type RecycleBinQuery = {
  hospitalId: string;
  limit: number;
  startKey?: Record<string, string>;
  /** Only datasets whose purgeAfter is at or before this ISO time (a key range on the bin's index). */
  purgeBy?: string;
};

export type SeriesRecord = Series & { hospitalId: string; studyInstanceUID?: string; fileCount?: number };
export type AssetRecord = ProcessedAsset & { hospitalId: string; bucket: 'assets'; objectKey: string };

export type DatasetListQuery = {
  hospitalId: string;
  /** Restrict to one team (leads and members); undefined = hospital-wide. */
  teamId?: string | null;
  /** Only this owner's datasets: a member of a team whose data policy is individual (docs/domain.md#teams). */
  ownerUserId?: string;
  status?: DatasetStatus;
  search?: string;
  /** Also match datasets of this patient alias (the search text taken as an MRN). */
  searchAlias?: string;
  limit: number;
  startKey?: Record<string, string>;
  /** Only datasets created at or after this ISO time (a key range on the index, not a filter). */
  createdFrom?: string;
  /** With createdFrom: only datasets created before this ISO time (the key range's other end). */
  createdBefore?: string;
};

export type DatasetListPage = { items: DatasetRecord[]; lastKey?: Record<string, string> };

export type DatasetRepository = {
  /** A live dataset: one in the recycle bin answers undefined, so every path that reads one by id answers 404. */
  get(hospitalId: string, datasetId: string): Promise<DatasetRecord | undefined>;
  create(dataset: DatasetRecord): Promise<void>;
  /** Updates fields while the dataset is in one of `expectedStatuses`; throws ConflictError otherwise. */
  update(
    hospitalId: string,
    datasetId: string,
    fields: Partial<DatasetRecord>,
    expectedStatuses: readonly DatasetStatus[],
  ): Promise<DatasetRecord>;
  /**
   * Conditional status change (expected previous status) written together with its audit event in one
   * transaction; throws ConflictError when the status moved.
   */
  transition(
    hospitalId: string,
    datasetId: string,
    from: readonly DatasetStatus[],
    to: DatasetStatus,
    fields?: Partial<DatasetRecord>,
    audit?: AuditEntry,
  ): Promise<DatasetRecord>;
  list(query: DatasetListQuery): Promise<DatasetListPage>;
  listSeries(hospitalId: string, datasetId: string): Promise<SeriesRecord[]>;
  putSeries(series: SeriesRecord): Promise<void>;
  updateSeries(
    hospitalId: string,
    datasetId: string,
    seriesId: string,
    fields: Partial<SeriesRecord>,
  ): Promise<SeriesRecord>;
  listAssets(hospitalId: string, datasetId: string): Promise<AssetRecord[]>;
  putAsset(asset: AssetRecord): Promise<void>;
  /** Several assets in batched writes (25 items a request in DynamoDB): a stage's outputs without a write per file. */
  putAssets(assets: AssetRecord[]): Promise<void>;
  /**
   * Moves a live dataset into the recycle bin: out of every list, search and `get` at once (its list index attributes
   * go, the bin's index takes it, oldest purge first). Conditional on it being live, in `dataset.status` and not under
   * legal hold; ConflictError otherwise.
   */
  moveToBin(dataset: DatasetRecord, bin: RecycleBinFields): Promise<DatasetRecord>;
  /** A dataset in the recycle bin (which `get` does not answer), or undefined. */
  getInBin(hospitalId: string, datasetId: string): Promise<DatasetRecord | undefined>;
  /** Takes a dataset out of the bin back into its lists; NotFoundError when it is not in the bin. */
  restoreFromBin(hospitalId: string, datasetId: string): Promise<DatasetRecord>;
  /** One page of the hospital's recycle bin, the soonest purged first. */
  listBin(query: RecycleBinQuery): Promise<DatasetListPage>;
  /** Puts (hold) or lifts (undefined) a legal hold on a live dataset; NotFoundError when it is not live. */
  setLegalHold(hospitalId: string, datasetId: string, hold: LegalHold | undefined): Promise<DatasetRecord>;
  /** Removes the dataset item and every item under it (series, assets, upload session and files). */
  deleteAll(hospitalId: string, datasetId: string, uploadSessionId?: string): Promise<number>;
};

export type Pseudonymizer = {
  /** Keyed hash of the MRN per hospital: the same patient links up, the MRN is never stored. */
  patientAlias(hospitalId: string, mrn: string): Promise<string>;
};

export type PipelineStarter = {
  start(input: { hospitalId: string; datasetId: string; runId: string }): Promise<void>;
};

/** Actor recorded on audit events written by the pipeline. */
export const PIPELINE_ACTOR = { actorUserId: 'pipeline', actorName: 'Processing pipeline' } as const;
