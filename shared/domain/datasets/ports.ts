import type { Dataset, DatasetStatus, ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import type { BucketName } from '#shared/domain/storage.ts';

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
  /** Removes the dataset item and every item under it (series, assets, upload session and files). */
  deleteAll(hospitalId: string, datasetId: string, uploadSessionId?: string): Promise<number>;
};

/** How the audited request ended: done, refused (not found, not allowed), or failed on our side. */
export const AUDIT_OUTCOMES = ['SUCCESS', 'DENIED', 'FAILURE'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export type AuditEvent = {
  id: string;
  hospitalId: string;
  datasetId?: string;
  /** A user the event is about (role change, invitation), when it is not the actor. */
  targetUserId?: string;
  at: string;
  /** e.g. DATASET_CREATED, STATUS_CHANGED, DATASET_VIEWED, USER_SIGNED_IN, USER_LOGGED_OUT */
  action: string;
  /** Absent on events written before outcomes were recorded: those succeeded. */
  outcome?: AuditOutcome;
  actorUserId: string;
  actorName: string;
  /** Our ids, statuses and option names only: never DICOM values or patient data. */
  details: Record<string, unknown>;
  /** Position in the hospital's audit chain and the chain hashes (docs/domain.md#audit-trail). */
  seq?: number;
  prevHash?: string;
  hash?: string;
};

export type AuditEntry = Omit<AuditEvent, 'id' | 'at' | 'seq' | 'prevHash' | 'hash'> & { at?: string };

/** Search of a hospital's audit log, newest first; one of actor or target at most narrows the index read. */
export type AuditQuery = {
  hospitalId: string;
  actorUserId?: string;
  /** A dataset id or a user id the events are about. */
  targetId?: string;
  action?: string;
  /** ISO times, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  startKey?: Record<string, string>;
};

export type AuditPage = { items: AuditEvent[]; lastKey?: Record<string, string> };

/** A page of the chain in order of position, for verification. */
export type AuditChainPage = {
  items: (AuditEvent & { seq: number; prevHash: string; hash: string })[];
  lastKey?: Record<string, string>;
};

export type AuditLog = {
  /** Appends to the hospital's chain (conditional on its head; a lost race is retried). */
  record(event: AuditEntry): Promise<void>;
  listForDataset(hospitalId: string, datasetId: string): Promise<AuditEvent[]>;
  search(query: AuditQuery): Promise<AuditPage>;
  /** The chain in order of position, a page at a time. */
  chainPage(hospitalId: string, startKey?: Record<string, string>): Promise<AuditChainPage>;
  /** The head item: the last appended position and hash; undefined for a hospital with no chained event. */
  head(hospitalId: string): Promise<AuditChainHead | undefined>;
  /**
   * True for the first read of its kind (actor, dataset, action) within `windowSeconds` of `at`, false for a repeat
   * (a page polling while a dataset is processed); claimed with one conditional write, never a chain append.
   */
  claimReadWindow(read: {
    hospitalId: string;
    actorUserId: string;
    datasetId: string;
    action: string;
    at: string;
    windowSeconds: number;
  }): Promise<boolean>;
  /** Keeps the outcome of the latest verification on the head item (the chain's own fields are left alone). */
  recordVerification(hospitalId: string, verification: AuditChainVerification): Promise<void>;
};

export type AuditChainVerification = {
  at: string;
  verified: boolean;
  checkedEvents: number;
  brokenAtSeq?: number;
};

export type AuditChainHead = { seq: number; hash: string; lastVerification?: AuditChainVerification };

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
