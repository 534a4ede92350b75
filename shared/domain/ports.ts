import type { AuditOutcome } from '#shared/vocabulary/audit.ts';

/**
 * The ports every domain uses: time, ids, the audit trail and page tokens (docs/architecture.md#shared-in-layers). A domain's own
 * ports (its repository, its services) live in its folder's ports.ts.
 */

export type Clock = { now(): string };
export type IdGenerator = { newId(): string };

/** Seals a DynamoDB LastEvaluatedKey into an opaque token bound to the hospital (and the query's shape). */
export type PageTokens = {
  seal(scope: string, key: Record<string, string>): Promise<string>;
  /** Throws ValidationError for a forged, altered or other-scope token. */
  open(scope: string, token: string): Promise<Record<string, string>>;
};

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
  /**
   * Makes the event durable: appended to the hospital's chain at once, or (deployed) written as a pending event the
   * audit appender chains within seconds (docs/domain.md#how-an-event-travels).
   */
  record(event: AuditEntry): Promise<void>;
  listForDataset(hospitalId: string, datasetId: string): Promise<AuditEvent[]>;
  search(query: AuditQuery): Promise<AuditPage>;
  /** The chain in order of position (after position `afterSeq`, when given), a page at a time. */
  chainPage(hospitalId: string, startKey?: Record<string, string>, afterSeq?: number): Promise<AuditChainPage>;
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
  /**
   * Where events are chained behind the requests (docs/domain.md#how-an-event-travels): chains what is pending for
   * the hospital now, so a verification that follows sees every event recorded before it. Absent where `record`
   * chains at once.
   */
  settle?(hospitalId: string): Promise<void>;
};

export type AuditChainVerification = {
  at: string;
  verified: boolean;
  checkedEvents: number;
  brokenAtSeq?: number;
  /**
   * The checkpoint (docs/domain.md#verification): the chain up to this position was found intact, and its event there
   * has `verifiedHash`. The next verification walks only what came after it.
   */
  verifiedSeq?: number;
  verifiedHash?: string;
};

export type AuditChainHead = { seq: number; hash: string; lastVerification?: AuditChainVerification };
