/**
 * One large hospital written straight into the table, for the hospital-scale bench (bench/hospital-scale.ts) and the
 * tests that show a route's reads do not grow with the hospital: the items are built with the table's key functions
 * and carry the item shapes the domain writes (datasets, series, users with their search tokens, teams,
 * departments, invitations, patient shares, chained audit events), so the routes read them as their own.
 * Everything belongs to the demo hospital Northside, beside its demo users (tests/integration/datasets-harness.ts).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { Table } from '#functions/adapters/dynamo/client.ts';
import { auditItem } from '#functions/adapters/dynamo/audit-items.ts';
import { teamIndexAttributes, userIndexAttributes, userSearchItems } from '#functions/adapters/dynamo/organisation.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { chainNext, EMPTY_HEAD, type ChainHead } from '#shared/domain/audit/chain.ts';
import type { TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { searchTextOf } from '#shared/domain/datasets/view.ts';
import type { InvitationRecord } from '#shared/domain/invitations/ports.ts';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import type { DatasetStatus, STUDY_TYPES as STUDY_TYPE_LIST } from '#shared/vocabulary/datasets.ts';
type StudyType = (typeof STUDY_TYPE_LIST)[number];
import { subOf } from '#tests/integration/datasets-harness.ts';
import { bulkPut } from './harness.ts';
import { seededStudyFields } from './datasets.ts';
import { createOrganisationStore } from '#functions/adapters/dynamo/organisation.ts';
import { recountReportItems } from '#shared/domain/reports/counters.ts';

export const SCALE_HOSPITAL = 'hosp-northside';
/** The demo lead's, member's and guest's team: one dataset in ten is theirs. */
export const DEMO_TEAM = 'team-northside-neuroradiology';
const DEMO_OWNER = subOf('member@northside.demo.local');
const DEPARTMENTS = 10;
const DAY_MS = 86_400_000;
/** Datasets are spread evenly over the two years before `now`. */
const SPAN_DAYS = 730;
const STATUSES: DatasetStatus[] = ['COMPLETE', 'COMPLETE', 'COMPLETE', 'FAILED', 'PROCESSING', 'CREATED'];
const STUDY_TYPES: StudyType[] = ['DIAGNOSTIC', 'FOLLOW_UP', 'SCREENING', 'RESEARCH', 'EMERGENCY'];
const ROLES: Role[] = ['TEAM_MEMBER', 'TEAM_MEMBER', 'TEAM_MEMBER', 'TEAM_LEAD', 'GUEST'];
const pad = (n: number, width = 6) => String(n).padStart(width, '0');
const defined = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

export const scaleTeamId = (t: number) => `hs-team-${pad(t, 3)}`;
export const scaleUserId = (u: number) => `hs-user-${pad(u, 5)}`;
export const scaleDatasetId = (i: number) => `hs-ds-${pad(i)}`;

/** A fraction in [0, 1) from an integer, the same on every run (so a size's datasets are spread the same way). */
function unit(i: number): number {
  let x = (i + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

export type ScaleShape = {
  /** Seeded teams (beside the demo ones). */
  teams: number;
  /** Seeded users, spread over the seeded teams. */
  users: number;
  /** Series of each dataset. */
  seriesPerDataset: number;
  /** Patient shares, spread over the first datasets (ten each). */
  patientShares: number;
  /** Audit events written per dataset (chained, in time order). */
  auditPerDataset: number;
  /** Invitations of the hospital (accepted ones, as joining leaves them, and a few pending). */
  invitations: number;
  /** The time the datasets lead up to. */
  now: string;
};

export const DEFAULT_SCALE_SHAPE: ScaleShape = {
  teams: 200,
  users: 5_000,
  seriesPerDataset: 3,
  patientShares: 10_000,
  auditPerDataset: 1,
  invitations: 0,
  now: new Date().toISOString(),
};

/** The i-th dataset: its team (one in ten the demo team), owner, status, type and a time within the two years. */
export function scaleDataset(
  i: number,
  shape: Pick<ScaleShape, 'teams' | 'users' | 'now' | 'seriesPerDataset'>,
): DatasetRecord {
  const demo = i % 10 === 0;
  const team = i % shape.teams;
  const createdAt = new Date(Date.parse(shape.now) - Math.floor(unit(i) * SPAN_DAYS * DAY_MS)).toISOString();
  // An owner among the team's users (user u is in team u % teams).
  const perTeam = Math.max(1, Math.floor(shape.users / shape.teams));
  const ownerIndex = shape.users > 0 ? (team + shape.teams * (i % perTeam)) % shape.users : 0;
  const status = STATUSES[i % STATUSES.length]!;
  const base = {
    id: scaleDatasetId(i),
    hospitalId: SCALE_HOSPITAL,
    teamId: demo ? DEMO_TEAM : scaleTeamId(team),
    ownerUserId: demo || shape.users === 0 ? DEMO_OWNER : scaleUserId(ownerIndex),
    ownerName: demo ? 'Taylor Brooks' : `Avery${pad(ownerIndex, 5)} Quinn${ownerIndex % 50}`,
    patientAlias: `PT-${pad(i)}`,
    studyType: STUDY_TYPES[i % STUDY_TYPES.length]!,
    ...seededStudyFields(i),
    status,
    sizeBytes: 50_000_000 + (i % 7) * 1_000_000,
    fileCount: 200 * shape.seriesPerDataset,
    seriesCount: shape.seriesPerDataset,
    createdAt,
    updatedAt: createdAt,
    ...(status === 'COMPLETE'
      ? {
          processingStartedAt: new Date(Date.parse(createdAt) + 60_000).toISOString(),
          completedAt: new Date(Date.parse(createdAt) + 60_000 + (5 + (i % 20)) * 60_000).toISOString(),
        }
      : {}),
  };
  return { ...base, searchText: searchTextOf(base) } as DatasetRecord;
}

function datasetItems(i: number, shape: ScaleShape): Record<string, unknown>[] {
  const d = scaleDataset(i, shape);
  const out: Record<string, unknown>[] = [
    { ...keys.dataset(d.hospitalId, d.id), ...keys.datasetIndexes(d), entity: 'dataset', ...d },
  ];
  for (let s = 0; s < shape.seriesPerDataset; s++) {
    const series: SeriesRecord = {
      id: `${d.id}-s${s}`,
      datasetId: d.id,
      hospitalId: d.hospitalId,
      seriesInstanceUID: `1.2.826.0.1.3680043.10.1.${i}.${s}`,
      description: ['T1 MPRAGE', 'T2 FLAIR', 'DWI'][s % 3]!,
      seriesNumber: s + 1,
      modality: 'MR',
      sliceCount: 176,
      sizeBytes: 16_000_000,
      selected: true,
      classification: null,
      createdAt: d.createdAt,
    };
    out.push({ ...keys.series(d.hospitalId, d.id, series.id), entity: 'series', ...series });
  }
  return out;
}

/** Departments, teams and users (with search tokens), and invitations: the organisation, written once. */
export async function seedOrganisation(table: Table, shape: ScaleShape): Promise<number> {
  const items: Record<string, unknown>[] = [];
  for (let d = 0; d < DEPARTMENTS; d++)
    items.push({
      ...keys.department(SCALE_HOSPITAL, `hs-dept-${d}`),
      entity: 'department',
      id: `hs-dept-${d}`,
      hospitalId: SCALE_HOSPITAL,
      name: `Scale Department ${d}`,
      description: '',
      createdAt: shape.now,
    });
  for (let t = 0; t < shape.teams; t++) {
    const team: TeamRecord = {
      id: scaleTeamId(t),
      hospitalId: SCALE_HOSPITAL,
      name: `Scale Team ${pad(t, 3)}`,
      departmentId: `hs-dept-${t % DEPARTMENTS}`,
      description: '',
      isActive: true,
      maxMembers: 100,
      memberCount: Math.ceil(shape.users / shape.teams),
      createdAt: shape.now,
    };
    items.push({
      ...keys.team(SCALE_HOSPITAL, team.id),
      ...defined(teamIndexAttributes(team)),
      entity: 'team',
      ...team,
    });
  }
  await bulkPut(table, items);
  return (
    items.length +
    (await seedInvitations(table, shape, 0, shape.invitations)) +
    (await seedUsers(table, shape, 0, shape.users))
  );
}

/**
 * Users `from` to `to` (exclusive), ACTIVE, with their index attributes and search tokens, and the hospital's users by
 * status moved as the paths that store a user move them (docs/domain.md#counters); answers the items written.
 */
export async function seedUsers(table: Table, shape: ScaleShape, from: number, to: number): Promise<number> {
  const items: Record<string, unknown>[] = [];
  for (let u = from; u < to; u++) {
    const role = ROLES[u % ROLES.length]!;
    const team = u % shape.teams;
    const user: UserRecord = {
      id: scaleUserId(u),
      email: `person${pad(u, 5)}@scale.test`,
      firstName: `Avery${pad(u, 5)}`,
      lastName: `Quinn${u % 50}`,
      role,
      status: 'ACTIVE',
      hospitalId: SCALE_HOSPITAL,
      teamId: scaleTeamId(team),
      departmentId: `hs-dept-${team % DEPARTMENTS}`,
      permissions: [...DEFAULT_PERMISSIONS[role]],
      createdAt: shape.now,
    };
    items.push(
      {
        ...keys.user(SCALE_HOSPITAL, user.id),
        ...keys.userByEmail(user.email),
        ...defined(userIndexAttributes(user)),
        entity: 'user',
        ...user,
      },
      ...userSearchItems(user),
    );
  }
  await bulkPut(table, items);
  await addHospitalCounters(table, { users_ACTIVE: to - from });
  return items.length;
}

/**
 * Invitations `from` to `to` (exclusive), one in fifty PENDING and the rest ACCEPTED, every fourth one to the demo
 * team, with their index entries; the counters of the hospital and of the team moved as sending and accepting move
 * them (docs/domain.md#counters). Answers the items written.
 */
export async function seedInvitations(table: Table, shape: ScaleShape, from: number, to: number): Promise<number> {
  const items: Record<string, unknown>[] = [];
  const counts = { hospital: { pending: 0, accepted: 0 }, team: { all: 0, pending: 0, accepted: 0 } };
  for (let n = from; n < to; n++) {
    const tokenHash = createHash('sha256').update(`hs-invite-${n}`).digest('hex');
    const pending = n % 50 === 0;
    const ofTeam = n % 4 === 0;
    // One second apart, the later the newer: the lists' order is known.
    const createdAt = new Date(Date.parse(shape.now) - DAY_MS + n * 1000).toISOString();
    const invitation: InvitationRecord = {
      id: `hs-inv-${pad(n, 5)}`,
      hospitalId: SCALE_HOSPITAL,
      email: `person${pad(n, 5)}@scale.test`,
      emailKey: `person${pad(n, 5)}@scale.test`,
      fullName: null,
      role: 'TEAM_MEMBER',
      teamRole: ofTeam ? 'MEMBER' : null,
      permissions: [],
      departmentId: null,
      departmentName: null,
      teamId: ofTeam ? DEMO_TEAM : null,
      teamName: null,
      specialization: null,
      message: null,
      status: pending ? 'PENDING' : 'ACCEPTED',
      tokenHash,
      createdAt,
      updatedAt: createdAt,
      sentAt: createdAt,
      expiresAt: new Date(Date.parse(createdAt) + 7 * DAY_MS).toISOString(),
      expiresInDays: 7,
      invitedByUserId: subOf('admin@northside.demo.local'),
      invitedByName: 'Alex Morgan',
      acceptedAt: pending ? null : createdAt,
      acceptedUserId: pending ? null : scaleUserId(n),
    };
    items.push({
      ...keys.invitation(SCALE_HOSPITAL, invitation.id),
      ...keys.invitationByTokenHash(tokenHash),
      ...keys.invitationIndexes(invitation),
      entity: 'invitation',
      ...invitation,
    });
    counts.hospital[pending ? 'pending' : 'accepted'] += 1;
    if (ofTeam) {
      counts.team.all += 1;
      counts.team[pending ? 'pending' : 'accepted'] += 1;
    }
  }
  await bulkPut(table, items);
  const moved = (c: { pending: number; accepted: number }, all: number) => ({
    invitationCount: all,
    pendingInvitationCount: c.pending,
    acceptedInvitationCount: c.accepted,
  });
  await addHospitalCounters(table, moved(counts.hospital, items.length));
  await addHospitalCounters(table, moved(counts.team, counts.team.all), keys.team(SCALE_HOSPITAL, DEMO_TEAM));
  return items.length;
}

/** UpdateItem ADD on the scale hospital's counters (or another item's), as the domain's code paths move them. */
async function addHospitalCounters(
  table: Table,
  deltas: Record<string, number>,
  Key = keys.hospital(SCALE_HOSPITAL),
): Promise<void> {
  const entries = Object.entries(deltas).filter(([, by]) => by !== 0);
  if (entries.length === 0) return;
  await table.doc.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key,
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, by], i) => [`:c${i}`, by])),
    }),
  );
}

/** Datasets `from` to `to` (exclusive) with their series; answers the number of items written. */
export async function seedDatasets(table: Table, shape: ScaleShape, from: number, to: number): Promise<number> {
  let written = 0;
  const CHUNK = 2_000;
  for (let start = from; start < to; start += CHUNK) {
    const items: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(to, start + CHUNK); i++) items.push(...datasetItems(i, shape));
    await bulkPut(table, items);
    written += items.length;
    // The report items (docs/domain.md#report-counters) move by what the chunk's datasets add, as creating them would.
    const chunk = Array.from({ length: Math.min(to, start + CHUNK) - start }, (_, k) => scaleDataset(start + k, shape));
    const counters = createOrganisationStore(table);
    const moves = recountReportItems(chunk);
    for (let m = 0; m < moves.length; m += 25)
      await Promise.all(
        moves.slice(m, m + 25).map((item) => counters.addReportCounts(SCALE_HOSPITAL, item, item.counts, item.names)),
      );
  }
  return written;
}

/**
 * Patient shares from `from` up to the shape's count, ten on each of the first datasets (which every size holds), all
 * stored ACTIVE with their by-expiry index entry, one in five already past its expiry (EXPIRED on read) unless
 * `pastExpiry` is false; the
 * hospital's shares by status moved as creating them moves them (docs/domain.md#counters).
 */
export async function seedPatientShares(
  table: Table,
  shape: ScaleShape,
  { from = 0, pastExpiry = true }: { from?: number; pastExpiry?: boolean } = {},
): Promise<number> {
  const items: Record<string, unknown>[] = [];
  for (let n = from; n < shape.patientShares; n++) {
    const d = scaleDataset(Math.floor(n / 10), shape);
    const tokenHash = createHash('sha256').update(`hs-share-${n}`).digest('hex');
    const share: PatientShareRecord = {
      id: `hs-ps-${pad(n, 5)}`,
      datasetId: d.id,
      hospitalId: SCALE_HOSPITAL,
      createdByUserId: d.ownerUserId,
      createdByName: d.ownerName,
      patientAlias: d.patientAlias,
      recipientEmail: `patient${n}@scale.test`,
      recipientPhone: null,
      otpRequired: true,
      expiresAt: new Date(Date.parse(shape.now) + (pastExpiry && n % 5 === 4 ? -1 : 30) * DAY_MS).toISOString(),
      maxOpens: -1,
      opens: 0,
      allowExport: false,
      watermark: true,
      scopes: ['viewer_only'],
      status: 'ACTIVE',
      createdAt: shape.now,
      tokenHash,
      failedAttempts: 0,
      studyType: d.studyType,
      studyDate: d.createdAt.slice(0, 10),
      version: 1,
    };
    items.push({
      ...keys.patientShare(SCALE_HOSPITAL, d.id, share.id),
      ...keys.patientShareByTokenHash(tokenHash),
      ...keys.activePatientShareByExpiry(share),
      entity: 'patientShare',
      ...share,
    });
  }
  await bulkPut(table, items);
  await addHospitalCounters(table, { patientShares_ACTIVE: items.length });
  return items.length;
}

/**
 * Audit events of datasets `from` to `to` (each created, then viewed when more than one is asked), chained after the
 * hospital's head in the order written, and the head moved to the last: the chain verifies as the appender's would.
 */
export async function seedAuditEvents(table: Table, shape: ScaleShape, from: number, to: number): Promise<number> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.tableName, Key: keys.auditHead(SCALE_HOSPITAL), ConsistentRead: true }),
  );
  const previous: ChainHead =
    Item && typeof Item.seq === 'number' ? { seq: Item.seq, hash: String(Item.hash) } : EMPTY_HEAD;
  let head = previous;
  let lastAt = typeof Item?.at === 'string' ? Item.at : '';
  let written = 0;
  const CHUNK = 5_000;
  let batch: Record<string, unknown>[] = [];
  for (let i = from; i < to; i++) {
    const d = scaleDataset(i, shape);
    for (let k = 0; k < shape.auditPerDataset; k++) {
      // Times never run backwards along the chain: an event is at the later of its dataset's time and the last one.
      const at = d.createdAt > lastAt ? d.createdAt : lastAt;
      lastAt = at;
      const event = await chainNext(
        head,
        {
          hospitalId: SCALE_HOSPITAL,
          datasetId: d.id,
          action: k === 0 ? 'DATASET_CREATED' : 'DATASET_VIEWED',
          outcome: 'SUCCESS',
          actorUserId: d.ownerUserId,
          actorName: d.ownerName,
          details: k === 0 ? { status: 'CREATED' } : {},
          at,
        },
        `hs-ev-${pad(i)}-${k}`,
        at,
      );
      head = { seq: event.seq, hash: event.hash };
      batch.push(auditItem(event));
      if (batch.length >= CHUNK) {
        await bulkPut(table, batch);
        written += batch.length;
        batch = [];
      }
    }
  }
  await bulkPut(table, batch);
  written += batch.length;
  if (head.seq !== previous.seq)
    await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.auditHead(SCALE_HOSPITAL),
        UpdateExpression: 'SET #seq = :seq, #hash = :hash, #at = :at, #entity = :entity',
        ExpressionAttributeNames: { '#seq': 'seq', '#hash': 'hash', '#at': 'at', '#entity': 'entity' },
        ExpressionAttributeValues: { ':seq': head.seq, ':hash': head.hash, ':at': lastAt, ':entity': 'auditHead' },
      }),
    );
  return written;
}
