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
  /** The hospital's de-identification policy (one item; absent = the defaults). */
  deidentificationPolicy: (hospitalId: string): ItemKey => ({
    [P.pk]: hospitalPk(hospitalId),
    [P.sk]: 'POLICY#DEIDENTIFICATION',
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
   * Audit events live in their own partition per hospital so that deleting a dataset's data keeps its
   * audit trail. Dataset events sort under `DS#<id>#`, others under `EVT#`; gsi1 lists a hospital's audit log by time.
   */
  auditEvent: (hospitalId: string, e: { datasetId?: string; at: string; id: string }): ItemKey => ({
    [P.pk]: auditPk(hospitalId),
    [P.sk]: e.datasetId ? `DS#${e.datasetId}#${e.at}#${e.id}` : `EVT#${e.at}#${e.id}`,
    [G1.pk]: auditPk(hospitalId),
    [G1.sk]: `${e.at}#${e.id}`,
  }),
  auditPartition: auditPk,
  datasetAuditPrefix: (datasetId: string) => `DS#${datasetId}#`,
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
