import { TABLE_KEYS } from './table.ts';

/**
 * Key builders per entity over the single table. Every base-table partition key starts with the hospital
 * (`H#<hospitalId>`), so no query can cross tenants by accident. Index keys serve one access pattern each:
 * gsi1 = a hospital's datasets newest first, gsi2 = a hospital's datasets by status newest first,
 * gsi3 = a team's datasets newest first, and users by e-mail.
 *
 * Sort keys that order by time use `<ISO createdAt>#<id>`: ISO-8601 UTC strings sort chronologically.
 */
const P = TABLE_KEYS.primary;
const G1 = TABLE_KEYS.gsi1;
const G2 = TABLE_KEYS.gsi2;
const G3 = TABLE_KEYS.gsi3;
const G4 = TABLE_KEYS.gsi4;
const G5 = TABLE_KEYS.gsi5;
const G6 = TABLE_KEYS.gsi6;
const G7 = TABLE_KEYS.gsi7;

/** The super admin's tenant: hospital-wide lists and summaries of the organisation live under it. */
const SYSTEM_PK = 'H#system';

/** Lower-cased name then id: index sort keys that list in name order and stay unique. */
export const nameSortKey = (name: string, id: string) => `${name.trim().toLowerCase()}#${id}`;

/**
 * Prefix tokens a user is found by (docs/domain.md#search): the full name (so a prefix of the first name, or of the
 * whole name, finds it), the last name and the e-mail.
 */
export function userSearchTokens(u: { firstName: string; lastName: string; email: string }): string[] {
  const tokens = [`${u.firstName} ${u.lastName}`, u.lastName, u.email].map((t) => t.trim().toLowerCase());
  return [...new Set(tokens.filter(Boolean))];
}

/** Prefix tokens a hospital is found by: its name and its city. */
export function hospitalSearchTokens(h: { name: string; city?: string | null }): string[] {
  return [...new Set([h.name, h.city ?? ''].map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

export type ItemKey = Record<string, string>;

export const hospitalPk = (hospitalId: string) => `H#${hospitalId}`;
/** The partition of what belongs to no hospital (the system maximums); `_` is outside the id alphabet. */
export const SYSTEM_PARTITION_ID = '_system';
const auditPk = (hospitalId: string) => `H#${hospitalId}#AUDIT`;
const activePatientSharesPartition = (hospitalId: string) => `H#${hospitalId}#PSHAREACTIVE`;
const auditPendingPk = (hospitalId: string) => `H#${hospitalId}#AUDITPENDING`;

/**
 * The partition of events waiting for the chain, as an IAM StringLike pattern: functions put there (one write per
 * audited action) but never update or delete; only the audit appender removes an item, as it chains it.
 */
export const AUDIT_PENDING_PARTITION_PATTERN = 'H#*#AUDITPENDING';

/**
 * How the audit appender is told of pending events, one definition wherever it runs: the table's stream
 * (new images) filtered on inserted items of this entity, handed over up to `batchSize` records at a time; a failed
 * batch is handed again up to `retryAttempts` times (a drain is safe to repeat).
 */
export const AUDIT_PENDING_STREAM = {
  entity: 'auditPending',
  view: 'NEW_IMAGE',
  batchSize: 100,
  retryAttempts: 10,
} as const;

/**
 * The partitions only the audit appender may write (docs/domain.md#audit-trail), as IAM StringLike patterns on
 * dynamodb:LeadingKeys: a hospital's events and its chain head. Read markers (`...#AUDITREADS`) are not among them.
 */
export const AUDIT_WRITE_PARTITION_PATTERNS = ['H#*#AUDIT', 'H#*#AUDITHEAD'] as const;

export const keys = {
  /** A job (docs/jobs.md), under the hospital of the caller who started it. */
  job: (ownerHospitalId: string, jobId: string): ItemKey => ({
    [P.pk]: hospitalPk(ownerHospitalId),
    [P.sk]: `JOB#${jobId}`,
  }),
  /** A job's per-item results: a partition of their own, in order of the item's position (zero-padded). */
  jobResult: (ownerHospitalId: string, jobId: string, seq: number): ItemKey => ({
    [P.pk]: `${hospitalPk(ownerHospitalId)}#JOB#${jobId}`,
    [P.sk]: `R#${String(seq).padStart(9, '0')}`,
  }),
  jobResultsPk: (ownerHospitalId: string, jobId: string) => `${hospitalPk(ownerHospitalId)}#JOB#${jobId}`,
  jobResultPrefix: 'R#',
  /** An integration of a hospital (docs/dicom-intake.md): a DICOMweb client or a DICOM node. */
  integration: (hospitalId: string, integrationId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `INTEGRATION#${integrationId}`,
  }),
  integrationPrefix: 'INTEGRATION#',
  /** The integration of an app client (the `client_id` of an access token). */
  integrationByClientId: (clientId: string): ItemKey => ({ [P.pk]: `H#_client#${clientId}`, [P.sk]: 'CLIENT' }),
  /** The DICOM node of a calling AE title: one per deployment, since one listener serves every hospital. */
  integrationByAeTitle: (aeTitle: string): ItemKey => ({ [P.pk]: `H#_ae#${aeTitle}`, [P.sk]: 'AE' }),
  /** A hospital's single sign-on configuration (docs/sso.md): one item, never the client secret. */
  sso: (hospitalId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: 'SSO' }),
  /** The hospital that owns an e-mail domain: one per deployment, claimed with a conditional write. */
  ssoDomain: (domain: string): ItemKey => ({ [P.pk]: `H#_ssodomain#${domain}`, [P.sk]: 'SSODOMAIN' }),
  /** A SCIM bearer token of a hospital (docs/sso.md#provisioning-scim): its SHA-256, name and dates. */
  scimToken: (hospitalId: string, tokenId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `SCIMTOKEN#${tokenId}`,
  }),
  scimTokenPrefix: 'SCIMTOKEN#',
  /** The token of a SHA-256, while it is not revoked: one per deployment, as the bearer names no hospital. */
  scimTokenByHash: (hash: string): ItemKey => ({ [P.pk]: `H#_scim#${hash}`, [P.sk]: 'SCIMTOKEN' }),
  /** A study being received from an integration, until its commit. */
  intakeStudy: (hospitalId: string, integrationId: string, studyInstanceUID: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `INTAKE#${integrationId}#${studyInstanceUID}`,
  }),
  /** Every hospital's received studies by the time they may be committed (the intake sweep's read). */
  intakeDue: (commitAfter: string, hospitalId: string, integrationId: string, studyInstanceUID: string): ItemKey => ({
    [G2.pk]: `${SYSTEM_PK}#INTAKE`,
    [G2.sk]: `${commitAfter}#${hospitalId}#${integrationId}#${studyInstanceUID}`,
  }),
  intakeDuePartition: () => ({ index: G2.index, pkName: G2.pk, skName: G2.sk, pk: `${SYSTEM_PK}#INTAKE` }),
  /**
   * The partition of a hospital's idempotency records (docs/domain.md#idempotency-records): Powertools for AWS
   * Lambda's DynamoDB persistence layer writes `pk` = this, `sk` = `<operation>#<hash of the natural key>`, with
   * status, `expiresAtEpoch` (the table's TTL attribute), the in-progress expiry and the unit's result.
   */
  idempotencyPartition: (hospitalId: string) => `${hospitalPk(hospitalId)}#IDEMPOTENCY`,
  /** A team share (docs/domain.md#shares), under its dataset. */
  teamShare: (hospitalId: string, datasetId: string, shareId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `TSHARE#${datasetId}#${shareId}`,
  }),
  teamSharePrefix: (datasetId: string) => `TSHARE#${datasetId}#`,
  /** The grant a read checks (one GetItem by hospital, recipient and dataset); a recipient's grants share a prefix. */
  shareGrant: (hospitalId: string, recipient: { type: 'USER' | 'TEAM'; id: string }, datasetId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `SHARETO#${recipient.type === 'USER' ? 'U' : 'T'}#${recipient.id}#DS#${datasetId}`,
  }),
  shareGrantPrefix: (recipient: { type: 'USER' | 'TEAM'; id: string }) =>
    `SHARETO#${recipient.type === 'USER' ? 'U' : 'T'}#${recipient.id}#DS#`,
  /** The source team's DICOM shares tab, newest last by sort key. */
  teamShareFrom: (hospitalId: string, teamId: string, createdAt: string, shareId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `TSHAREFROM#${teamId}#${createdAt}#${shareId}`,
  }),
  teamShareFromPrefix: (teamId: string) => `TSHAREFROM#${teamId}#`,
  /** A share waiting for approval (docs/domain.md#share-policy), under its hospital. */
  shareApproval: (hospitalId: string, shareId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `SHAREAPPROVAL#${shareId}`,
  }),
  shareApprovalPrefix: () => 'SHAREAPPROVAL#',
  /** A patient share under its dataset; gsi3 finds it by its link's token hash, across hospitals. */
  patientShare: (hospitalId: string, datasetId: string, shareId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `PSHARE#${datasetId}#${shareId}`,
  }),
  patientSharePrefix: (datasetId: string) => `PSHARE#${datasetId}#`,
  /** Every patient share of the hospital, whatever its dataset (no other item's sort key begins so). */
  patientShareHospitalPrefix: 'PSHARE#',
  patientShareByTokenHash: (tokenHash: string): ItemKey => ({
    [G3.pk]: `PSHARETOKEN#${tokenHash}`,
    [G3.sk]: 'PSHARE',
  }),
  /**
   * A patient share stored ACTIVE on gsi2, under its hospital by expiry (sparse: a share of any other status carries
   * no gsi2 attributes), so the ACTIVE shares past their expiry are counted with one Count query (docs/domain.md#indexes).
   */
  activePatientShareByExpiry: (s: { hospitalId: string; id: string; expiresAt: string }): ItemKey => ({
    [G2.pk]: activePatientSharesPartition(s.hospitalId),
    [G2.sk]: `${s.expiresAt}#${s.id}`,
  }),
  /** gsi2 attribute names a patient share carries only while ACTIVE. */
  activePatientShareIndexNames: [G2.pk, G2.sk] as readonly string[],
  activePatientSharesByExpiry: (hospitalId: string) => ({
    index: G2.index,
    pkName: G2.pk,
    skName: G2.sk,
    pk: activePatientSharesPartition(hospitalId),
  }),
  /** A patient's viewing session: its own partition by the session's hash, read consistently. */
  patientSession: (sessionHash: string): ItemKey => ({ [P.pk]: `H#_session#${sessionHash}`, [P.sk]: 'SESSION' }),
  /** The access log of a patient share, oldest first. */
  shareAccessEvent: (hospitalId: string, shareId: string, at: string, id: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `PSHAREEVT#${shareId}#${at}#${id}`,
  }),
  shareAccessEventPrefix: (shareId: string) => `PSHAREEVT#${shareId}#`,
  /** A fixed-window counter of the public routes' rate limits (expires with its window). */
  rateCounter: (key: string, window: number): ItemKey => ({ [P.pk]: `H#_rate#${key}#${window}`, [P.sk]: 'RATE' }),

  hospital: (hospitalId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: 'HOSPITAL' }),
  department: (hospitalId: string, departmentId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `DEPT#${departmentId}`,
  }),
  team: (hospitalId: string, teamId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: `TEAM#${teamId}` }),
  user: (hospitalId: string, userId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: `USER#${userId}` }),
  userPrefix: 'USER#',
  /** The hospital's de-identification policy (one item; absent = the defaults). */
  deidentificationPolicy: (hospitalId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: 'POLICY#DEIDENTIFICATION',
  }),
  /** Index attributes of a user item: hospital by name, role, department and team partitions (docs/domain.md#indexes). */
  userIndexes: (u: {
    hospitalId: string;
    id: string;
    firstName: string;
    lastName: string;
    role: string;
    departmentId?: string | null;
    teamId: string | null;
  }): ItemKey => {
    const sort = nameSortKey(`${u.firstName} ${u.lastName}`, u.id);
    return {
      [G4.pk]: `H#${u.hospitalId}#USER`,
      [G4.sk]: sort,
      [G5.pk]: `H#${u.hospitalId}#USER#ROLE#${u.role}`,
      [G5.sk]: sort,
      ...(u.departmentId ? { [G6.pk]: `H#${u.hospitalId}#USER#DEPT#${u.departmentId}`, [G6.sk]: sort } : {}),
      ...(u.teamId ? { [G7.pk]: `H#${u.hospitalId}#USER#TEAM#${u.teamId}`, [G7.sk]: sort } : {}),
    };
  },
  /** One small item per search token of a user: `<token>#<userId>` under the hospital's user-search partition. */
  userSearch: (hospitalId: string, token: string, userId: string): ItemKey => ({
    [P.pk]: `${hospitalPk(hospitalId)}#USEARCH`,
    [P.sk]: `${token}#${userId}`,
  }),
  userSearchPartition: (hospitalId: string) => `${hospitalPk(hospitalId)}#USEARCH`,
  /** Index attributes of a team item: all teams, active teams, by department, active by department; by name. */
  teamIndexes: (t: { hospitalId: string; id: string; name: string; departmentId: string; isActive: boolean }) => {
    const sort = nameSortKey(t.name, t.id);
    return {
      [G4.pk]: `H#${t.hospitalId}#TEAM`,
      [G4.sk]: sort,
      ...(t.isActive ? { [G5.pk]: `H#${t.hospitalId}#TEAM#ACTIVE`, [G5.sk]: sort } : {}),
      [G6.pk]: `H#${t.hospitalId}#TEAM#DEPT#${t.departmentId}`,
      [G6.sk]: sort,
      ...(t.isActive ? { [G7.pk]: `H#${t.hospitalId}#TEAM#DEPT#${t.departmentId}#ACTIVE`, [G7.sk]: sort } : {}),
    } as ItemKey;
  },
  /** Index attributes of a hospital item: every hospital, by status, by plan; by name. */
  hospitalIndexes: (h: { id: string; name: string; status: string; subscriptionPlan: string }): ItemKey => {
    const sort = nameSortKey(h.name, h.id);
    return {
      [G4.pk]: `${SYSTEM_PK}#HOSPITALS`,
      [G4.sk]: sort,
      [G5.pk]: `${SYSTEM_PK}#HOSPITALS#STATUS#${h.status}`,
      [G5.sk]: sort,
      [G6.pk]: `${SYSTEM_PK}#HOSPITALS#PLAN#${h.subscriptionPlan}`,
      [G6.sk]: sort,
    };
  },
  hospitalSearch: (token: string, hospitalId: string): ItemKey => ({
    [P.pk]: `${SYSTEM_PK}#HSEARCH`,
    [P.sk]: `${token}#${hospitalId}`,
  }),
  hospitalSearchPartition: `${SYSTEM_PK}#HSEARCH`,
  /** Claims a hospital slug, so that two hospitals never share one. */
  hospitalSlug: (slug: string): ItemKey => ({ [P.pk]: SYSTEM_PK, [P.sk]: `SLUG#${slug}` }),
  /** Marks a hospital's monthly report for a month (yyyy-mm) as sent, so a rerun of the job does not send it again. */
  monthlyReportSent: (hospitalId: string, month: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `REPORT#MONTHLY#${month}`,
  }),
  /** Which generation of counters the stored ones are (docs/domain.md#counters): the seed recounts an older one. */
  countersVersion: (): ItemKey => ({ [P.pk]: SYSTEM_PK, [P.sk]: 'COUNTERS#VERSION' }),
  /** Counters over every hospital for the Hospital Management summary cards (docs/domain.md#counters). */
  hospitalSummary: (): ItemKey => ({ [P.pk]: SYSTEM_PK, [P.sk]: 'SUMMARY#HOSPITALS' }),
  /**
   * Marks a patient alias as counted for the hospital or one of its teams (written once with attribute_not_exists),
   * so that "Patients Analyzed" counts distinct patients (docs/domain.md#counters).
   */
  /** A day's compute meter of the hospital or a team (docs/domain.md#usage-and-billing). */
  usageDay: (hospitalId: string, scope: string, day: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `USAGE#${scope}#${day}`,
  }),
  /**
   * A report item (docs/domain.md#report-counters): the counts of the datasets created in one month (yyyy-mm) of the
   * hospital (scope 'hospital') or a team, so a range of months is one key range of the hospital's partition.
   */
  reportCounts: (hospitalId: string, scope: string, month: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `COUNTS#${scope}#${month}`,
  }),
  reportCountsPrefix: 'COUNTS#',
  patientMarker: (hospitalId: string, scope: string, patientAlias: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `PATIENT#${scope}#${patientAlias}`,
  }),
  /**
   * Policies (docs/domain.md#policies-and-inheritance): the system maximums in the one partition that is no
   * hospital's (`H#_system`: a hospital id never holds `_`), each hospital's policy and each team's overrides.
   */
  systemPolicy: (): ItemKey => ({ [P.pk]: hospitalPk(SYSTEM_PARTITION_ID), [P.sk]: 'POLICY#SYSTEM' }),
  hospitalPolicy: (hospitalId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: 'POLICY#HOSPITAL' }),
  teamPolicy: (hospitalId: string, teamId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `POLICY#TEAM#${teamId}`,
  }),
  /** A user's notification preferences (absent = the defaults). */
  notificationPreferences: (hospitalId: string, userId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `PREFS#${userId}`,
  }),
  /** gsi3: find a user by e-mail (case-insensitive), e.g. for invitations and sign-in bookkeeping. */
  userByEmail: (email: string): ItemKey => ({ [G3.pk]: `EMAIL#${email.toLowerCase()}`, [G3.sk]: 'USER' }),

  /** An invitation (docs/domain.md#invitations); gsi3 finds it by its link's token hash, across hospitals. */
  invitation: (hospitalId: string, invitationId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `INVITE#${invitationId}`,
  }),
  invitationPrefix: 'INVITE#',
  invitationByTokenHash: (tokenHash: string): ItemKey => ({
    [G3.pk]: `INVITETOKEN#${tokenHash}`,
    [G3.sk]: 'INVITATION',
  }),
  /**
   * Index attributes of an invitation item (docs/domain.md#indexes): gsi1 the hospital's invitations and gsi2 the
   * team's, newest first (`<createdAt>#<id>`); while stored PENDING, gsi4 (hospital) and gsi5 (team) by expiry, and
   * while PENDING with no e-mail sent, gsi6 (hospital) and gsi7 (team) by expiry. The by-expiry entries are sparse:
   * the counts of lapsed and unsent invitations are Count queries over them.
   */
  invitationIndexes: (i: {
    hospitalId: string;
    id: string;
    teamId: string | null;
    createdAt: string;
    expiresAt: string;
    status: string;
    sentAt: string | null;
  }): ItemKey => {
    const created = `${i.createdAt}#${i.id}`;
    const expiry = `${i.expiresAt}#${i.id}`;
    const pending = i.status === 'PENDING';
    const unsent = pending && !i.sentAt;
    return {
      [G1.pk]: invitationPartitions.hospital(i.hospitalId),
      [G1.sk]: created,
      ...(i.teamId ? { [G2.pk]: invitationPartitions.team(i.hospitalId, i.teamId), [G2.sk]: created } : {}),
      ...(pending ? { [G4.pk]: invitationPartitions.pending(i.hospitalId), [G4.sk]: expiry } : {}),
      ...(pending && i.teamId
        ? { [G5.pk]: invitationPartitions.pending(i.hospitalId, i.teamId), [G5.sk]: expiry }
        : {}),
      ...(unsent ? { [G6.pk]: invitationPartitions.unsent(i.hospitalId), [G6.sk]: expiry } : {}),
      ...(unsent && i.teamId ? { [G7.pk]: invitationPartitions.unsent(i.hospitalId, i.teamId), [G7.sk]: expiry } : {}),
    };
  },
  /** Every index attribute name an invitation item may carry besides gsi3 (its link's token hash). */
  invitationIndexNames: [
    G1.pk,
    G1.sk,
    G2.pk,
    G2.sk,
    G4.pk,
    G4.sk,
    G5.pk,
    G5.sk,
    G6.pk,
    G6.sk,
    G7.pk,
    G7.sk,
  ] as readonly string[],
  /** The by-expiry entries an invitation carries only while stored PENDING. */
  invitationExpiryIndexNames: [G4.pk, G4.sk, G5.pk, G5.sk, G6.pk, G6.sk, G7.pk, G7.sk] as readonly string[],
  /** The by-expiry entries an invitation carries only while PENDING with no e-mail sent. */
  invitationUnsentIndexNames: [G6.pk, G6.sk, G7.pk, G7.sk] as readonly string[],
  /** The invitations of a hospital, or of one of its teams, newest first. */
  invitationsNewestFirst: (hospitalId: string, teamId?: string): IndexPartition =>
    teamId
      ? { index: G2.index, pkName: G2.pk, skName: G2.sk, pk: invitationPartitions.team(hospitalId, teamId) }
      : { index: G1.index, pkName: G1.pk, skName: G1.sk, pk: invitationPartitions.hospital(hospitalId) },
  /** The stored-PENDING invitations of a hospital or team by expiry (sort key `<expiresAt>#<id>`). */
  pendingInvitationsByExpiry: (hospitalId: string, teamId?: string): IndexPartition =>
    teamId
      ? { index: G5.index, pkName: G5.pk, skName: G5.sk, pk: invitationPartitions.pending(hospitalId, teamId) }
      : { index: G4.index, pkName: G4.pk, skName: G4.sk, pk: invitationPartitions.pending(hospitalId) },
  /** The PENDING invitations of a hospital or team whose e-mail never went out, by expiry. */
  unsentInvitationsByExpiry: (hospitalId: string, teamId?: string): IndexPartition =>
    teamId
      ? { index: G7.index, pkName: G7.pk, skName: G7.sk, pk: invitationPartitions.unsent(hospitalId, teamId) }
      : { index: G6.index, pkName: G6.pk, skName: G6.sk, pk: invitationPartitions.unsent(hospitalId) },
  /** Held while the hospital has a PENDING invitation for the e-mail (lower case): one pending invitation each. */
  invitationEmailLock: (hospitalId: string, emailKey: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `INVLOCK#${emailKey}`,
  }),

  dataset: (hospitalId: string, datasetId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `DS#${datasetId}`,
  }),
  /** Index attributes written on every dataset item; status index moves with the status. */
  datasetIndexes: (d: {
    hospitalId: string;
    id: string;
    createdAt: string;
    status: string;
    teamId: string | null;
  }): ItemKey => ({
    [G1.pk]: `H#${d.hospitalId}#DS`,
    [G1.sk]: `${d.createdAt}#${d.id}`,
    [G2.pk]: datasetStatusPartition(d.hospitalId, d.status),
    [G2.sk]: `${d.createdAt}#${d.id}`,
    [G3.pk]: datasetTeamPartition(d.hospitalId, d.teamId),
    [G3.sk]: `${d.createdAt}#${d.id}`,
  }),
  /**
   * A dataset in the recycle bin (docs/domain.md#recycle-bin) keeps only this index: its gsi1 and gsi3 attributes go,
   * so no list or search reads it, and gsi2 holds it under the hospital's bin, the soonest purged first.
   */
  datasetBinIndexes: (d: { hospitalId: string; id: string; purgeAfter: string }): ItemKey => ({
    [G2.pk]: datasetBinPartition(d.hospitalId),
    [G2.sk]: `${d.purgeAfter}#${d.id}`,
  }),
  /** The list index attributes a dataset leaves behind in the bin (gsi2 is rewritten, not removed). */
  datasetListOnlyIndexNames: [G1.pk, G1.sk, G3.pk, G3.sk] as readonly string[],
  /** Prefix of every item that belongs to a dataset (series, assets); the dataset item itself is `DS#<id>`. */
  datasetChildrenPrefix: (datasetId: string) => `DS#${datasetId}#`,
  series: (hospitalId: string, datasetId: string, seriesId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `DS#${datasetId}#SERIES#${seriesId}`,
  }),
  seriesPrefix: (datasetId: string) => `DS#${datasetId}#SERIES#`,
  /** The hospital's pipeline-run semaphore: runs holding a slot and runs waiting, in order. */
  runSlots: (hospitalId: string): ItemKey => ({ [P.pk]: hospitalPk(hospitalId), [P.sk]: 'RUNSLOTS' }),
  asset: (hospitalId: string, datasetId: string, assetId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `DS#${datasetId}#ASSET#${assetId}`,
  }),
  assetPrefix: (datasetId: string) => `DS#${datasetId}#ASSET#`,

  uploadSession: (hospitalId: string, sessionId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `UPLOAD#${sessionId}`,
  }),

  /**
   * Audit events live in their own partition per hospital so that deleting a dataset's data keeps its audit trail.
   * The sort key is the event's position in the hospital's chain (`SEQ#<12 digits>`, docs/domain.md#audit-trail):
   * a conditional put on it lets only one writer take a position. gsi1 lists the log by time, gsi2 by target (a
   * dataset or a user the event is about), gsi3 by actor.
   */
  auditEvent: (
    hospitalId: string,
    e: { seq: number; at: string; id: string; actorUserId: string; datasetId?: string; targetUserId?: string },
  ): ItemKey => {
    const target = e.datasetId ?? e.targetUserId;
    return {
      [P.pk]: auditPk(hospitalId),
      [P.sk]: auditSeqKey(e.seq),
      [G1.pk]: auditPk(hospitalId),
      [G1.sk]: `${e.at}#${e.id}`,
      ...(target ? { [G2.pk]: auditTargetPartition(hospitalId, target), [G2.sk]: `${e.at}#${e.id}` } : {}),
      [G3.pk]: auditActorPartition(hospitalId, e.actorUserId),
      [G3.sk]: `${e.at}#${e.id}`,
    };
  },
  /** The chain's head: last position and hash, conditionally updated with each append (own partition, see docs). */
  auditHead: (hospitalId: string): ItemKey => ({ [P.pk]: `${auditPk(hospitalId)}HEAD`, [P.sk]: 'HEAD' }),
  auditPartition: auditPk,
  /**
   * An audit event made durable by its request and not chained yet (docs/domain.md#audit-trail): one partition per
   * hospital, sorted by the event's time then its id, so the chainer reads them in order. Deleted in the transaction
   * that chains it.
   */
  auditPending: (hospitalId: string, at: string, id: string): ItemKey => ({
    [P.pk]: auditPendingPk(hospitalId),
    [P.sk]: `${at}#${id}`,
  }),
  auditPendingPartition: (hospitalId: string) => auditPendingPk(hospitalId),
  /** When a user last had a read of a dataset recorded (one item per user, dataset and kind of read; expires). */
  auditReadMarker: (hospitalId: string, actorUserId: string, datasetId: string, action: string): ItemKey => ({
    [P.pk]: `${auditPk(hospitalId)}READS`,
    [P.sk]: `${actorUserId}#${datasetId}#${action}`,
  }),
  /**
   * The DICOMweb index of a hospital's de-identified instances (docs/dicom-intake.md#the-dicomweb-index): one partition
   * per hospital holding, per dataset copy, a study item (`ST#<study>#<rank>`), a series item
   * (`SE#<study>#<series>#<rank>`) and an instance item (`IN#<study>#<series>#<sop>#<rank>`), `rank` being the
   * dataset's `<createdAt>#<id>`: a study's series and a series' instances are one key range each, and the copies of
   * one UID lie side by side, oldest first. The overloaded indexes serve the QIDO-RS keys that narrow a search:
   * studies by StudyDate (gsi1), PatientID (gsi2) and AccessionNumber (gsi3); series and instances by their own UID
   * without their study (gsi1).
   */
  dicomIndexPartition: (hospitalId: string) => dicomPartition(hospitalId),
  dicomStudy: (hospitalId: string, studyUID: string, rank: string): ItemKey => ({
    [P.pk]: dicomPartition(hospitalId),
    [P.sk]: `ST#${studyUID}#${rank}`,
  }),
  /** A study's copies, or with no UID every study item. */
  dicomStudyPrefix: (studyUID?: string) => (studyUID ? `ST#${studyUID}#` : 'ST#'),
  /** Index attributes of a study item; an empty StudyDate sorts first (`-`), an absent PatientID or accession has none. */
  dicomStudyIndexes: (
    hospitalId: string,
    s: { studyUID: string; rank: string; studyDate: string; patientId: string; accessionNumber: string },
  ): ItemKey => ({
    [G1.pk]: `${dicomPartition(hospitalId)}#DATE`,
    [G1.sk]: `${s.studyDate || '-'}#${s.studyUID}#${s.rank}`,
    ...(s.patientId
      ? { [G2.pk]: `${dicomPartition(hospitalId)}#PID#${s.patientId}`, [G2.sk]: `${s.studyUID}#${s.rank}` }
      : {}),
    ...(s.accessionNumber
      ? { [G3.pk]: `${dicomPartition(hospitalId)}#ACC#${s.accessionNumber}`, [G3.sk]: `${s.studyUID}#${s.rank}` }
      : {}),
  }),
  dicomStudyByDate: (hospitalId: string) => on(G1, `${dicomPartition(hospitalId)}#DATE`),
  dicomStudyByPatientId: (hospitalId: string, patientId: string) =>
    on(G2, `${dicomPartition(hospitalId)}#PID#${patientId}`),
  dicomStudyByAccession: (hospitalId: string, accessionNumber: string) =>
    on(G3, `${dicomPartition(hospitalId)}#ACC#${accessionNumber}`),
  dicomSeries: (hospitalId: string, studyUID: string, seriesUID: string, rank: string): ItemKey => ({
    [P.pk]: dicomPartition(hospitalId),
    [P.sk]: `SE#${studyUID}#${seriesUID}#${rank}`,
  }),
  dicomSeriesPrefix: (studyUID?: string, seriesUID?: string) =>
    studyUID ? (seriesUID ? `SE#${studyUID}#${seriesUID}#` : `SE#${studyUID}#`) : 'SE#',
  dicomSeriesIndexes: (hospitalId: string, seriesUID: string, rank: string): ItemKey => ({
    [G1.pk]: `${dicomPartition(hospitalId)}#SERIES`,
    [G1.sk]: `${seriesUID}#${rank}`,
  }),
  dicomSeriesByUid: (hospitalId: string) => on(G1, `${dicomPartition(hospitalId)}#SERIES`),
  dicomInstance: (hospitalId: string, studyUID: string, seriesUID: string, sopUID: string, rank: string): ItemKey => ({
    [P.pk]: dicomPartition(hospitalId),
    [P.sk]: `IN#${studyUID}#${seriesUID}#${sopUID}#${rank}`,
  }),
  dicomInstancePrefix: (studyUID?: string, seriesUID?: string, sopUID?: string) =>
    ['IN', studyUID, seriesUID, sopUID].filter((part) => part !== undefined).join('#') + '#',
  dicomInstanceIndexes: (hospitalId: string, sopUID: string, rank: string): ItemKey => ({
    [G1.pk]: `${dicomPartition(hospitalId)}#SOP`,
    [G1.sk]: `${sopUID}#${rank}`,
  }),
  dicomInstanceByUid: (hospitalId: string) => on(G1, `${dicomPartition(hospitalId)}#SOP`),
  /** A user's notifications, newest last in the partition (read in reverse); they expire (TTL) after a while. */
  notification: (hospitalId: string, userId: string, createdAt: string, id: string): ItemKey => ({
    [P.pk]: notificationPartition(hospitalId, userId),
    [P.sk]: `N#${createdAt}#${id}`,
  }),
  notificationPartition: (hospitalId: string, userId: string) => notificationPartition(hospitalId, userId),
  notificationPrefix: 'N#',
  /** A once-only event of notification delivery (a threshold's alert of a month, a user's digest of a period). */
  notificationClaim: (hospitalId: string, key: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `NOTIFY#CLAIM#${key}`,
  }),
  /** An e-mail waiting for a user's digest: one partition per hospital and period, by user then time. */
  digestItem: (hospitalId: string, period: string, userId: string, createdAt: string, id: string): ItemKey => ({
    [P.pk]: digestPartition(hospitalId, period),
    [P.sk]: `${userId}#${createdAt}#${id}`,
  }),
  digestPartition: (hospitalId: string, period: string) => digestPartition(hospitalId, period),
  /** A user's sign-in attempts since their last success (docs/domain.md#security-alerts). */
  signInAttempts: (hospitalId: string, userId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `SIGNINS#${userId}`,
  }),
  auditSeqPrefix: 'SEQ#',
  auditSeqKey,
};

function digestPartition(hospitalId: string, period: string): string {
  return `${hospitalPk(hospitalId)}#DIGEST#${period}`;
}

function dicomPartition(hospitalId: string): string {
  return `${hospitalPk(hospitalId)}#DW`;
}

function notificationPartition(hospitalId: string, userId: string): string {
  return `${hospitalPk(hospitalId)}#USER#${userId}#NOTIF`;
}

function auditSeqKey(seq: number): string {
  return `SEQ#${String(seq).padStart(12, '0')}`;
}

export function auditTargetPartition(hospitalId: string, targetId: string): string {
  return `${auditPk(hospitalId)}#T#${targetId}`;
}

export function auditActorPartition(hospitalId: string, actorUserId: string): string {
  return `${auditPk(hospitalId)}#A#${actorUserId}`;
}

/** The index partitions the audit search reads, by what narrows it; each is ordered by time. */
export const auditListIndexes = {
  byTime: (hospitalId: string) => ({ index: G1.index, pkName: G1.pk, skName: G1.sk, pk: auditPk(hospitalId) }),
  byTarget: (hospitalId: string, targetId: string) => ({
    index: G2.index,
    pkName: G2.pk,
    skName: G2.sk,
    pk: auditTargetPartition(hospitalId, targetId),
  }),
  byActor: (hospitalId: string, actorUserId: string) => ({
    index: G3.index,
    pkName: G3.pk,
    skName: G3.sk,
    pk: auditActorPartition(hospitalId, actorUserId),
  }),
};

/** The index partitions of invitations (keys.invitationIndexes). */
const invitationPartitions = {
  hospital: (hospitalId: string) => `H#${hospitalId}#INVITE`,
  team: (hospitalId: string, teamId: string) => `H#${hospitalId}#INVITE#TEAM#${teamId}`,
  pending: (hospitalId: string, teamId?: string) =>
    teamId ? `H#${hospitalId}#INVITEPENDING#TEAM#${teamId}` : `H#${hospitalId}#INVITEPENDING`,
  unsent: (hospitalId: string, teamId?: string) =>
    teamId ? `H#${hospitalId}#INVITEUNSENT#TEAM#${teamId}` : `H#${hospitalId}#INVITEUNSENT`,
};

export function datasetStatusPartition(hospitalId: string, status: string): string {
  return `H#${hospitalId}#DS#STATUS#${status}`;
}

export function datasetBinPartition(hospitalId: string): string {
  return `H#${hospitalId}#DS#BIN`;
}

export function datasetTeamPartition(hospitalId: string, teamId: string | null): string {
  return `H#${hospitalId}#TEAM#${teamId ?? '-'}#DS`;
}

/** The index partitions the dataset list queries use, named by access pattern. */
export const datasetListIndexes = {
  byHospitalRecent: (hospitalId: string) => ({
    index: G1.index,
    pkName: G1.pk,
    skName: G1.sk,
    pk: `H#${hospitalId}#DS`,
  }),
  byStatus: (hospitalId: string, status: string) => ({
    index: G2.index,
    pkName: G2.pk,
    skName: G2.sk,
    pk: datasetStatusPartition(hospitalId, status),
  }),
  recycleBin: (hospitalId: string) => ({
    index: G2.index,
    pkName: G2.pk,
    skName: G2.sk,
    pk: datasetBinPartition(hospitalId),
  }),
  byTeamRecent: (hospitalId: string, teamId: string | null) => ({
    index: G3.index,
    pkName: G3.pk,
    skName: G3.sk,
    pk: datasetTeamPartition(hospitalId, teamId),
  }),
};

/** The index partitions the organisation lists query (docs/domain.md#indexes), named by access pattern. */
export type IndexPartition = { index: string; pkName: string; skName: string; pk: string };
const on = (g: { index: string; pk: string; sk: string }, pk: string): IndexPartition => ({
  index: g.index,
  pkName: g.pk,
  skName: g.sk,
  pk,
});
export const organisationIndexes = {
  usersByName: (hospitalId: string) => on(G4, `H#${hospitalId}#USER`),
  usersByRole: (hospitalId: string, role: string) => on(G5, `H#${hospitalId}#USER#ROLE#${role}`),
  usersByDepartment: (hospitalId: string, departmentId: string) => on(G6, `H#${hospitalId}#USER#DEPT#${departmentId}`),
  usersByTeam: (hospitalId: string, teamId: string) => on(G7, `H#${hospitalId}#USER#TEAM#${teamId}`),
  teams: (hospitalId: string) => on(G4, `H#${hospitalId}#TEAM`),
  activeTeams: (hospitalId: string) => on(G5, `H#${hospitalId}#TEAM#ACTIVE`),
  teamsByDepartment: (hospitalId: string, departmentId: string) => on(G6, `H#${hospitalId}#TEAM#DEPT#${departmentId}`),
  activeTeamsByDepartment: (hospitalId: string, departmentId: string) =>
    on(G7, `H#${hospitalId}#TEAM#DEPT#${departmentId}#ACTIVE`),
  hospitals: () => on(G4, `${SYSTEM_PK}#HOSPITALS`),
  hospitalsByStatus: (status: string) => on(G5, `${SYSTEM_PK}#HOSPITALS#STATUS#${status}`),
  hospitalsByPlan: (plan: string) => on(G6, `${SYSTEM_PK}#HOSPITALS#PLAN#${plan}`),
};

/** Every attribute the key builders write, for the drift test (must all be in TABLE_KEYS). */
export const KEY_ATTRIBUTE_NAMES: readonly string[] = [
  P.pk,
  P.sk,
  ...[G1, G2, G3, G4, G5, G6, G7].flatMap((g) => [g.pk, g.sk]),
];

/** Strips key attributes (and the entity tag) before an item leaves the data layer. */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item };
  for (const name of KEY_ATTRIBUTE_NAMES) delete copy[name];
  delete copy.entity;
  return copy;
}
