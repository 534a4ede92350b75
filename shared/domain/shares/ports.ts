import type { PatientShare, ShareAccessEvent, ShareApproval, TeamShare } from '#shared/schemas/api/shares.ts';

/** A team share as stored (docs/domain.md#shares): one per recipient (a user or a team). */
export type TeamShareRecord = TeamShare & { hospitalId: string };

/**
 * A patient share as stored: the link's token only as its SHA-256 hash, the one-time code only as a slow salted hash
 * under a random salt of its own (ShareCodeHasher).
 */
export type PatientShareRecord = Omit<PatientShare, 'lockedUntil'> & {
  hospitalId: string;
  tokenHash: string;
  lockedUntil?: string;
  /** Wrong codes since the last lock or success. */
  failedAttempts: number;
  codeHash?: string;
  /** The random salt of the current code's hash; a code stored without one (before salts) is treated as expired. */
  codeSalt?: string;
  codeExpiresAt?: string;
  /** Study type and date as the e-mail/SMS and the public page name the dataset: never patient data. */
  studyType: string;
  studyDate: string;
  /** Optimistic concurrency: every update is conditional on it. */
  version: number;
};

/** A patient's viewing session: issued by a verified code, bound to one share, stored only as a hash. */
export type PatientSessionRecord = {
  sessionHash: string;
  hospitalId: string;
  datasetId: string;
  shareId: string;
  expiresAt: string;
};

/**
 * A share waiting for approval (docs/domain.md#share-policy), one item per share. A team share's items (its grant
 * above all) are written only once it is approved, so the waiting share is carried here; a patient share is stored at
 * once as PENDING_APPROVAL, whose link does not open.
 */
export type ShareApprovalRecord = ShareApproval & { hospitalId: string; teamShare?: TeamShareRecord };

export type ShareAccessRecord = ShareAccessEvent & { hospitalId: string; datasetId: string };

export type ShareStore = {
  /** Writes the share, its recipient lookup item and its source-team listing item together; ConflictError when the recipient already has a share of the dataset. */
  putTeamShare(share: TeamShareRecord): Promise<void>;
  getTeamShare(hospitalId: string, datasetId: string, shareId: string): Promise<TeamShareRecord | undefined>;
  listTeamSharesOfDataset(hospitalId: string, datasetId: string): Promise<TeamShareRecord[]>;
  /** The team's DICOM shares tab: shares of the team's datasets, newest first. */
  listTeamSharesFromTeam(hospitalId: string, teamId: string): Promise<TeamShareRecord[]>;
  /** Deletes the share and its lookup and listing items at once. */
  deleteTeamShare(share: TeamShareRecord): Promise<void>;
  /** The lookup item for one recipient and one dataset (one GetItem). */
  findGrant(
    hospitalId: string,
    recipient: { type: 'USER' | 'TEAM'; id: string },
    datasetId: string,
  ): Promise<TeamShareRecord | undefined>;
  /** The recipient's partition of lookup items: datasets shared with them. */
  listReceived(hospitalId: string, recipient: { type: 'USER' | 'TEAM'; id: string }): Promise<TeamShareRecord[]>;

  putApproval(approval: ShareApprovalRecord): Promise<void>;
  getApproval(hospitalId: string, shareId: string): Promise<ShareApprovalRecord | undefined>;
  /** The hospital's waiting shares (the queue is short: one partition prefix). */
  listApprovals(hospitalId: string): Promise<ShareApprovalRecord[]>;
  /** Deletes the approval if it is still there: ConflictError when another decision took it first. */
  takeApproval(approval: ShareApprovalRecord): Promise<void>;

  putPatientShare(share: PatientShareRecord): Promise<void>;
  getPatientShare(hospitalId: string, datasetId: string, shareId: string): Promise<PatientShareRecord | undefined>;
  listPatientShares(hospitalId: string, datasetId: string): Promise<PatientShareRecord[]>;
  /** Every patient share of the hospital (one read of their common prefix, not one per dataset). */
  listHospitalPatientShares(hospitalId: string): Promise<PatientShareRecord[]>;
  /**
   * How many of the hospital's shares stored ACTIVE have their expiry at or before `now` (expired on read): one Count
   * query of the sparse by-expiry index, which reads no share (docs/domain.md#oversight-figures).
   */
  countActivePastExpiry(hospitalId: string, now: string): Promise<number>;
  /**
   * A page of the hospital's shares stored ACTIVE whose expiry is at or before `now`, oldest expiry first, from the same
   * index: the retention job stores their EXPIRED status, so the index keeps only links that can still be opened.
   */
  listActivePastExpiry(
    hospitalId: string,
    now: string,
    page: { limit: number; startKey?: Record<string, string> },
  ): Promise<{ items: PatientShareRecord[]; lastKey?: Record<string, string> }>;
  /** Across hospitals, by the hash of the link's token. */
  findPatientShareByTokenHash(tokenHash: string): Promise<PatientShareRecord | undefined>;
  /** Conditional on `expectedVersion`; ConflictError when the share changed meanwhile. Returns the new record. */
  updatePatientShare(
    share: PatientShareRecord,
    fields: Partial<PatientShareRecord>,
    expectedVersion: number,
  ): Promise<PatientShareRecord>;

  putSession(session: PatientSessionRecord): Promise<void>;
  getSession(sessionHash: string): Promise<PatientSessionRecord | undefined>;

  addAccessEvent(event: ShareAccessRecord): Promise<void>;
  listAccessEvents(hospitalId: string, shareId: string): Promise<ShareAccessRecord[]>;

  /** Counts a hit in a fixed window and returns the count so far (rate limits of the public routes). */
  hit(key: string, windowSeconds: number, now: string): Promise<number>;
};

/**
 * How a one-time code is stored: a fresh random salt for every code issued, and a slow keyed hash of the share id and
 * the code under it, so one stolen item costs a full search of the million codes with the slow hash, and no
 * precomputed table serves two shares. `matches` compares in constant time.
 */
export type ShareCodeHasher = {
  newSalt(): string;
  hash(shareId: string, code: string, salt: string): Promise<string>;
  matches(shareId: string, code: string, salt: string, stored: string): Promise<boolean>;
};

/** Sends a text message (SNS Publish to a phone number). */
export type SmsSender = { send(message: { to: string; text: string }): Promise<void> };

/** Tunables; tests shorten the lock. */
export type ShareLimits = {
  maxWrongCodes: number;
  lockSeconds: number;
  codeTtlSeconds: number;
  sessionTtlSeconds: number;
  assetUrlTtlSeconds: number;
  /** Code requests per share in a window of lockSeconds. */
  codeRequestsPerShare: number;
  /** Public calls per client per minute. */
  callsPerClientPerMinute: number;
};

export const DEFAULT_SHARE_LIMITS: ShareLimits = {
  maxWrongCodes: 5,
  lockSeconds: 15 * 60,
  codeTtlSeconds: 10 * 60,
  sessionTtlSeconds: 30 * 60,
  assetUrlTtlSeconds: 60,
  codeRequestsPerShare: 5,
  callsPerClientPerMinute: 120,
};
