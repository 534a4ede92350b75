import type { Dataset, DatasetStatus, ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';

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
};

export type SeriesRecord = Series & { hospitalId: string; studyInstanceUID?: string; fileCount?: number };
export type AssetRecord = ProcessedAsset & { hospitalId: string; bucket: 'assets'; objectKey: string };

export type DatasetListQuery = {
  hospitalId: string;
  /** Restrict to one team (leads and members); undefined = hospital-wide. */
  teamId?: string | null;
  status?: DatasetStatus;
  search?: string;
  /** Also match datasets of this patient alias (the search text taken as an MRN). */
  searchAlias?: string;
  limit: number;
  startKey?: Record<string, string>;
};

export type DatasetListPage = { items: DatasetRecord[]; lastKey?: Record<string, string> };

export type DatasetRepository = {
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
   * Conditional status change (expected previous status) written together with its audit event (one transaction
   * where the store supports it); throws ConflictError when the status moved.
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
  /** Removes the dataset item and every item under it (series, assets, upload session and files). */
  deleteAll(hospitalId: string, datasetId: string, uploadSessionId?: string): Promise<number>;
};

export type AuditEvent = {
  id: string;
  hospitalId: string;
  datasetId?: string;
  at: string;
  /** e.g. DATASET_CREATED, STATUS_CHANGED, SERIES_CLASSIFIED, USER_LOGGED_OUT */
  action: string;
  actorUserId: string;
  actorName: string;
  /** Our ids, statuses and option names only: never DICOM values or patient data. */
  details: Record<string, unknown>;
};

export type AuditEntry = Omit<AuditEvent, 'id' | 'at'> & { at?: string };

export type AuditLog = {
  record(event: AuditEntry): Promise<void>;
  listForDataset(hospitalId: string, datasetId: string): Promise<AuditEvent[]>;
};

/** Seals a DynamoDB LastEvaluatedKey into an opaque token bound to the hospital (and the query's shape). */
export type PageTokens = {
  seal(scope: string, key: Record<string, string>): Promise<string>;
  /** Throws ValidationError for a forged, altered or other-scope token. */
  open(scope: string, token: string): Promise<Record<string, string>>;
};

export type Pseudonymizer = {
  /** Keyed hash of the MRN per hospital: the same patient links up, the MRN is never stored. */
  patientAlias(hospitalId: string, mrn: string): Promise<string>;
};

export type { BucketName, ObjectStore } from '#shared/domain/storage.ts';

export type PipelineStarter = {
  start(input: { hospitalId: string; datasetId: string; runId: string }): Promise<void>;
};

export type Clock = { now(): string };
export type IdGenerator = { newId(): string };

/** Actor recorded on audit events written by the pipeline. */
export const PIPELINE_ACTOR = { actorUserId: 'pipeline', actorName: 'Processing pipeline' } as const;
