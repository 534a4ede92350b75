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

export type ItemKey = Record<string, string>;

export const hospitalPk = (hospitalId: string) => `H#${hospitalId}`;
const auditPk = (hospitalId: string) => `H#${hospitalId}#AUDIT`;

export const keys = {
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
  /** gsi3: find a user by e-mail (case-insensitive), e.g. for invitations and sign-in bookkeeping. */
  userByEmail: (email: string): ItemKey => ({ [G3.pk]: `EMAIL#${email.toLowerCase()}`, [G3.sk]: 'USER' }),

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
  uploadFile: (hospitalId: string, sessionId: string, fileIndex: number): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: `UPLOAD#${sessionId}#FILE#${String(fileIndex).padStart(5, '0')}`,
  }),
  uploadFilePrefix: (sessionId: string) => `UPLOAD#${sessionId}#FILE#`,

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
  /** When a user last had a read of a dataset recorded (one item per user, dataset and kind of read; expires). */
  auditReadMarker: (hospitalId: string, actorUserId: string, datasetId: string, action: string): ItemKey => ({
    [P.pk]: `${auditPk(hospitalId)}READS`,
    [P.sk]: `${actorUserId}#${datasetId}#${action}`,
  }),
  /** A user's notifications, newest last in the partition (read in reverse); they expire (TTL) after a while. */
  notification: (hospitalId: string, userId: string, createdAt: string, id: string): ItemKey => ({
    [P.pk]: notificationPartition(hospitalId, userId),
    [P.sk]: `N#${createdAt}#${id}`,
  }),
  notificationPartition: (hospitalId: string, userId: string) => notificationPartition(hospitalId, userId),
  notificationPrefix: 'N#',
  auditSeqPrefix: 'SEQ#',
  auditSeqKey,
};

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

export function datasetStatusPartition(hospitalId: string, status: string): string {
  return `H#${hospitalId}#DS#STATUS#${status}`;
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
  byTeamRecent: (hospitalId: string, teamId: string | null) => ({
    index: G3.index,
    pkName: G3.pk,
    skName: G3.sk,
    pk: datasetTeamPartition(hospitalId, teamId),
  }),
};

/** Every attribute the key builders write, for the drift test (must all be in TABLE_KEYS). */
export const KEY_ATTRIBUTE_NAMES: readonly string[] = [P.pk, P.sk, G1.pk, G1.sk, G2.pk, G2.sk, G3.pk, G3.sk];

/** Strips key attributes (and the entity tag) before an item leaves the data layer. */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item };
  for (const name of KEY_ATTRIBUTE_NAMES) delete copy[name];
  delete copy.entity;
  return copy;
}
