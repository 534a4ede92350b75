import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { matchRoute, ROUTES, routeKey } from '#shared/definitions/api/routes.ts';
import { assertInsideContract } from '#tests/helpers/openapi-contract.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_NOTIFICATION_PREFERENCES,
  DEFAULT_SYSTEM_POLICY,
} from '#shared/schemas/api/policies.ts';
import { datasetPrefix, studyKeys, uploadKeys } from '#shared/domain/object-keys.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { writeManifest } from '#shared/domain/uploads/manifest.ts';
import { archivePartBytes } from '#shared/domain/uploads/study-archive.ts';
import { packArchive } from '#tests/helpers/study-archive.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { createShareCodeHasher } from '#functions/adapters/crypto.ts';
import { apiFetch, signIn, startTestStack, type TestStack } from '#tests/helpers/local-stack.ts';
import { HARNESS_POOL, startHarness, subOf, type Harness } from './datasets-harness.ts';
import { queuedJob } from '#shared/domain/jobs/runner.ts';
import { datasetRecord, newDatasetBody } from '#tests/helpers/datasets.ts';
import { NORTHSIDE_DEMO_PROFILE } from '#tests/helpers/fixtures.ts';

/**
 * Point 5: every route of the table, as every role, as a user of the other hospital and unauthenticated. Each call
 * gets fresh fixtures, so a success (delete, retry) never changes what the next call sees.
 */
type Actor = 'SUPER_ADMIN' | 'HOSPITAL_ADMIN' | 'TEAM_LEAD' | 'TEAM_MEMBER' | 'GUEST' | 'OTHER_HOSPITAL' | 'ANONYMOUS';
const ACTORS: Record<Actor, string | undefined> = {
  SUPER_ADMIN: 'superadmin@demo.local',
  HOSPITAL_ADMIN: 'admin@northside.demo.local',
  TEAM_LEAD: 'lead@northside.demo.local',
  TEAM_MEMBER: 'member@northside.demo.local',
  GUEST: 'guest@northside.demo.local',
  OTHER_HOSPITAL: 'lead@lakeview.demo.local',
  ANONYMOUS: undefined,
};

const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';

/** What the table needs from a server: call a route as someone, reach its data to plant fixtures. */
type Backend = {
  deps: Pick<
    ServerDeps,
    | 'datasets'
    | 'uploads'
    | 'objects'
    | 'directory'
    | 'organisation'
    | 'invitations'
    | 'shares'
    | 'integrations'
    | 'jobs'
    | 'scimTokens'
  >;
  sub(email: string): string;
  uploadPart(objectKey: string, uploadId: string, bytes: Uint8Array): Promise<string>;
  call(
    method: string,
    path: string,
    options: { as?: string; body?: unknown; query?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
};

let h: Backend;
let counter = 0;

async function dataset(
  status: DatasetStatus,
  options: {
    teamId?: string;
    owner?: string;
    withSeries?: boolean;
    heldSeries?: boolean;
    /** The held series' one instance is stored too, so it can be previewed and redacted. */
    storedInstance?: boolean;
    upload?: 'open' | 'parts-stored';
  } = {},
) {
  const id = `ds-${Date.now().toString(36)}-${++counter}`;
  const now = new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString();
  const record = datasetRecord({
    id,
    hospitalId: HOSPITAL,
    teamId: options.teamId ?? TEAM,
    ownerUserId: h.sub(options.owner ?? 'member@northside.demo.local'),
    status,
    createdAt: now,
    updatedAt: now,
    ...(status === 'FAILED' ? { failureReason: 'Processing failed' } : {}),
  });
  let sessionId: string | undefined;
  if (options.upload) {
    sessionId = `session-${id}`;
    // A one-file study: its archive (header, 3 bytes padded to a block, end blocks) in one part.
    const archive = packArchive([new Uint8Array([1, 2, 3])]);
    const archiveKey = uploadKeys.archive(HOSPITAL, id, sessionId);
    await writeManifest(h.deps.objects, HOSPITAL, id, sessionId, {
      files: [{ fileKey: fileKeyOf('a/1.dcm'), sizeBytes: 3 }],
    });
    const uploadId = await h.deps.objects.createMultipart('uploads', archiveKey);
    const etag = options.upload === 'open' ? undefined : await h.uploadPart(archiveKey, uploadId, archive);
    await h.deps.uploads.createSession({
      sessionId,
      hospitalId: HOSPITAL,
      datasetId: id,
      createdByUserId: record.ownerUserId,
      fileCount: 1,
      totalBytes: 3,
      archiveKey,
      archiveBytes: archive.byteLength,
      partBytes: archivePartBytes(archive.byteLength),
      partCount: 1,
      multipartUploadId: uploadId,
      status: 'OPEN',
      createdAt: now,
    });
    record.uploadSessionId = sessionId;
    (record as { etag?: string }).etag = etag;
  }
  const { etag, ...stored } = record as DatasetRecord & { etag?: string };
  await h.deps.datasets.create(stored);
  if (options.withSeries || options.heldSeries) {
    await h.deps.datasets.putSeries({
      id: '1.2.3.4',
      datasetId: id,
      hospitalId: HOSPITAL,
      seriesInstanceUID: '1.2.3.4',
      description: 'T1 MPRAGE',
      seriesNumber: 1,
      modality: 'MR',
      sliceCount: 1,
      sizeBytes: 10,
      selected: true,
      classification: null,
      ...(options.heldSeries ? { burnedInText: { reasons: ['BURNED_IN_ANNOTATION' as const] } } : {}),
      createdAt: now,
    });
  }
  if (options.storedInstance) {
    const instance = buildDicom({ extra: [{ tag: '00280301', vr: 'CS', value: 'YES' }] });
    await h.deps.objects.put('studies', studyKeys.instance(HOSPITAL, id, '1.2.3.4', '1.2.3.4.1'), instance);
  }
  return { id, sessionId, etag };
}

/** A dataset of our team in the recycle bin (docs/domain.md#recycle-bin), deleted by our lead. */
async function binned(): Promise<string> {
  const { id } = await dataset('COMPLETE');
  const record = (await h.deps.datasets.get(HOSPITAL, id))!;
  await h.deps.datasets.moveToBin(record, {
    deletedAt: '2026-01-05T00:00:00.000Z',
    purgeAfter: '2026-02-04T00:00:00.000Z',
    deletedByUserId: h.sub(ACTORS.TEAM_LEAD!),
    deletedByName: 'Jordan Patel',
    deletionReason: 'Duplicate upload',
  });
  return id;
}

const DEPARTMENT = 'dept-northside-radiology';
const fresh = (kind: string) => `${kind}-${Date.now().toString(36)}-${++counter}`;
const at = () => new Date(Date.UTC(2026, 0, 2, 0, 0, counter)).toISOString();

/** A user of our hospital, in our lead's team unless told otherwise; no identity (the twin's pool does not know it). */
async function orgUser(overrides: Partial<UserRecord> = {}): Promise<string> {
  const id = fresh('user');
  await h.deps.directory.putUser({
    id,
    email: `${id}@northside.demo.local`,
    firstName: 'Fresh',
    lastName: 'Fixture',
    role: 'TEAM_MEMBER',
    status: 'ACTIVE',
    hospitalId: HOSPITAL,
    teamId: TEAM,
    departmentId: DEPARTMENT,
    permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
    createdAt: at(),
    ...overrides,
  });
  return id;
}

const HOSPITAL_DETAILS = {
  email: 'contact@fixture.test',
  phone: '3125550100',
  addressLine1: '1 Fixture Road',
  city: 'Springfield',
  state: 'IL',
};

/** A hospital with no users or datasets (deleting it needs only the typed name). */
async function orgHospital(status: 'ACTIVE' | 'DEACTIVATED' = 'ACTIVE') {
  const id = fresh('hosp');
  const name = `Fixture Hospital ${id}`;
  await h.deps.organisation.createHospital({
    id,
    slug: id,
    name,
    ...HOSPITAL_DETAILS,
    subscriptionPlan: 'BASIC',
    status,
    createdAt: at(),
    updatedAt: at(),
  });
  return { id, name };
}

async function orgDepartment(): Promise<string> {
  const id = fresh('dept');
  await h.deps.organisation.createDepartment({
    id,
    hospitalId: HOSPITAL,
    name: 'Fixture',
    description: '',
    createdAt: at(),
  });
  return id;
}

async function orgTeam(isActive = true): Promise<string> {
  const id = fresh('team');
  await h.deps.organisation.createTeam({
    id,
    hospitalId: HOSPITAL,
    name: 'Fixture Team',
    departmentId: DEPARTMENT,
    description: '',
    isActive,
    createdAt: at(),
  });
  return id;
}
type PlantedJob = Parameters<Harness['deps']['jobs']['create']>[0];

/** A job of our hospital planted in the table (docs/jobs.md): running and without progress unless `fields` say so. */
async function plantJob(
  prefix: string,
  fields: Pick<PlantedJob, 'kind' | 'input' | 'createdBy'> & Partial<PlantedJob>,
): Promise<string> {
  const id = fresh(prefix);
  const spec = { ownerHospitalId: HOSPITAL, hospitalId: HOSPITAL, total: null, ...fields };
  await h.deps.jobs.create({ ...queuedJob(spec, id, new Date().toISOString()), status: 'RUNNING', ...fields });
  return id;
}

/** A finished job of our hospital with one result. */
async function job(): Promise<string> {
  const id = await plantJob('job', {
    kind: 'BULK_INVITATIONS',
    status: 'SUCCEEDED',
    input: { rows: [], departments: {}, teams: {} },
    chunks: 1,
    total: 1,
    processed: 1,
    succeeded: 1,
    createdBy: { userId: 'user-admin', name: 'Admin' },
    finishedAt: new Date().toISOString(),
  });
  await h.deps.jobs.putResults({ ownerHospitalId: HOSPITAL, jobId: id }, [
    { seq: 1, subject: 'row@northside.demo.local', outcome: 'SUCCEEDED', code: null, reason: null, ref: null },
  ]);
  return id;
}

/** A running export of a dataset of our hospital, started by the lead (docs/exports.md). */
const exportJob = (datasetId: string) =>
  plantJob('export', {
    kind: 'DATASET_EXPORT',
    input: { datasetId, format: 'dicom', email: ACTORS.TEAM_LEAD },
    createdBy: { userId: h.sub(ACTORS.TEAM_LEAD!), name: 'Jordan Patel' },
  });

/** A running audit export of our hospital, started by its admin. */
const auditExportJob = () =>
  plantJob('auditexport', {
    kind: 'AUDIT_EXPORT',
    input: { filter: {} },
    createdBy: { userId: h.sub(ACTORS.HOSPITAL_ADMIN!), name: 'Morgan Reyes' },
  });

/** Jobs of a hospital: its admin reads them; the super admin's hospital is another one (404), the rest the gate stops. */
const jobOwners = (ok: number): Record<Actor, number> => ({ ...hospitalAdmins(ok), SUPER_ADMIN: 404 });

/** A pending invitation of our hospital (in TEAM) planted directly, with the token of its link. */
async function invitation(): Promise<{ id: string; token: string }> {
  const n = ++counter;
  const id = `inv-${Date.now().toString(36)}-${n}`;
  const token = randomBytes(32).toString('base64url');
  const now = new Date().toISOString();
  const email = `invitee-${id}@northside.demo.local`;
  await h.deps.invitations.create({
    id,
    hospitalId: HOSPITAL,
    email,
    emailKey: email,
    fullName: 'Robin Invitee',
    role: 'TEAM_MEMBER',
    teamRole: 'MEMBER',
    permissions: ['VIEW_DATASETS'],
    departmentId: 'dept-northside-radiology',
    departmentName: 'Radiology',
    teamId: TEAM,
    teamName: 'Neuroradiology',
    specialization: null,
    message: null,
    status: 'PENDING',
    tokenHash: createHash('sha256').update(token).digest('hex'),
    createdAt: now,
    updatedAt: now,
    sentAt: now,
    expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    expiresInDays: 7,
    invitedByUserId: h.sub(ACTORS.HOSPITAL_ADMIN!),
    invitedByName: 'Alex Morgan',
    acceptedAt: null,
    acceptedUserId: null,
  });
  return { id, token };
}

/** A DICOM node of our hospital planted directly; its id. */
async function integration(): Promise<string> {
  const id = fresh('integration');
  await h.deps.integrations.create({
    id,
    hospitalId: HOSPITAL,
    kind: 'DICOM_NODE',
    name: 'Fixture modality',
    teamId: TEAM,
    teamName: 'Neuroradiology',
    status: 'ACTIVE',
    quietSeconds: 300,
    aeTitle: `FIX${counter}`,
    allowedAddresses: ['10.0.0.1'],
    createdAt: at(),
    createdByUserId: h.sub(ACTORS.HOSPITAL_ADMIN!),
    createdByName: 'Alex Morgan',
  });
  return id;
}

/** A team share of a fresh dataset of our team (owned by the member) with the stroke team. */
async function teamShare(): Promise<{ datasetId: string; shareId: string }> {
  const ds = await dataset('COMPLETE');
  const shareId = fresh('tshare');
  await h.deps.shares.putTeamShare({
    id: shareId,
    hospitalId: HOSPITAL,
    datasetId: ds.id,
    sourceTeamId: TEAM,
    recipientType: 'TEAM',
    recipientId: 'team-northside-stroke',
    recipientName: 'Stroke',
    permissions: ['view'],
    createdByUserId: h.sub('member@northside.demo.local'),
    createdByName: 'Taylor Brooks',
    createdAt: at(),
  });
  return { datasetId: ds.id, shareId };
}

/** A team share of a fresh dataset of our team, asked for by the member and waiting for approval (docs/domain.md#share-policy). */
async function waitingShare(): Promise<string> {
  const ds = await dataset('COMPLETE');
  const shareId = fresh('waiting');
  const requestedAt = at();
  const requestedByUserId = h.sub('member@northside.demo.local');
  await h.deps.shares.putApproval({
    id: shareId,
    hospitalId: HOSPITAL,
    kind: 'TEAM',
    datasetId: ds.id,
    teamId: TEAM,
    recipient: 'Stroke',
    permissions: ['view'],
    requestedByUserId,
    requestedByName: 'Taylor Brooks',
    requestedAt,
    teamShare: {
      id: shareId,
      hospitalId: HOSPITAL,
      datasetId: ds.id,
      sourceTeamId: TEAM,
      recipientType: 'TEAM',
      recipientId: 'team-northside-stroke',
      recipientName: 'Stroke',
      permissions: ['view'],
      createdByUserId: requestedByUserId,
      createdByName: 'Taylor Brooks',
      createdAt: requestedAt,
      status: 'PENDING_APPROVAL',
    },
  });
  return shareId;
}

const PATIENT_CODE = '123456';
const SHARE_CODES = createShareCodeHasher();
const CODE_SALT = SHARE_CODES.newSalt();
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A patient share of a fresh dataset with a known link token and a code already sent; `session` also opens it and
 * gives the session of the page, with one downloadable asset.
 */
async function patientShare(): Promise<{ datasetId: string; shareId: string; token: string; session: string }> {
  const ds = await dataset('COMPLETE');
  const shareId = fresh('pshare');
  const token = randomBytes(32).toString('base64url');
  const session = randomBytes(32).toString('base64url');
  const now = Date.now();
  await h.deps.datasets.putAsset({
    id: 'asset-1',
    datasetId: ds.id,
    hospitalId: HOSPITAL,
    type: 'VOLUME',
    label: 'T1w',
    byteSize: 10,
    mimeType: 'application/gzip',
    metadata: {},
    createdAt: at(),
    bucket: 'assets',
    objectKey: `${datasetPrefix(HOSPITAL, ds.id)}assets/t1w.nii.gz`,
  });
  // A NIfTI-1 header alone: the download marks its description (docs/domain.md#patient-downloads).
  const nifti = Buffer.alloc(352);
  nifti.writeInt32LE(348, 0);
  nifti.write('n+1\0', 344, 'latin1');
  await h.deps.objects.put('assets', `${datasetPrefix(HOSPITAL, ds.id)}assets/t1w.nii.gz`, gzipSync(nifti));
  await h.deps.shares.putPatientShare({
    id: shareId,
    hospitalId: HOSPITAL,
    datasetId: ds.id,
    createdByUserId: h.sub('member@northside.demo.local'),
    createdByName: 'Taylor Brooks',
    patientAlias: 'PT-000000000000',
    // Of the hospital's own domain: its defaults keep external links closed (docs/domain.md#share-policy).
    recipientEmail: 'patient@northside.demo.local',
    recipientPhone: null,
    otpRequired: true,
    expiresAt: new Date(now + 3600_000).toISOString(),
    maxOpens: 10,
    opens: 0,
    allowExport: true,
    watermark: true,
    scopes: ['viewer_only', 'downloads'],
    status: 'ACTIVE',
    createdAt: new Date(now).toISOString(),
    tokenHash: sha256(token),
    failedAttempts: 0,
    // Stored as the core stores a code it sent: salted, slow (docs/domain.md#patient-shares).
    codeHash: await SHARE_CODES.hash(shareId, PATIENT_CODE, CODE_SALT),
    codeSalt: CODE_SALT,
    codeExpiresAt: new Date(now + 600_000).toISOString(),
    studyType: 'Diagnostic',
    studyDate: '2026-01-01',
    version: 1,
  });
  await h.deps.shares.putSession({
    sessionHash: sha256(session),
    hospitalId: HOSPITAL,
    datasetId: ds.id,
    shareId,
    expiresAt: new Date(now + 600_000).toISOString(),
  });
  return { datasetId: ds.id, shareId, token, session };
}
const freshEmail = () => `new-${Date.now().toString(36)}-${++counter}@invitee.test`;

type Call = { method: string; path: string; body?: unknown; query?: Record<string, string> };
type Case = { prepare: () => Promise<Call>; expect: Record<Actor, number> };

const staff = (admin: number, lead: number, member: number): Record<Actor, number> => ({
  SUPER_ADMIN: 403,
  HOSPITAL_ADMIN: admin,
  TEAM_LEAD: lead,
  TEAM_MEMBER: member,
  GUEST: 403,
  OTHER_HOSPITAL: 404,
  ANONYMOUS: 401,
});
const uploaders = (ok: number): Record<Actor, number> => ({
  SUPER_ADMIN: 403,
  HOSPITAL_ADMIN: 403,
  TEAM_LEAD: ok,
  TEAM_MEMBER: ok,
  GUEST: 403,
  OTHER_HOSPITAL: 404,
  ANONYMOUS: 401,
});
const viewers = (status: number): Record<Actor, number> => ({ ...staff(status, status, status), GUEST: status });
const everyone = (signedIn: number, anonymous: number): Record<Actor, number> => ({
  SUPER_ADMIN: signedIn,
  HOSPITAL_ADMIN: signedIn,
  TEAM_LEAD: signedIn,
  TEAM_MEMBER: signedIn,
  GUEST: signedIn,
  OTHER_HOSPITAL: signedIn,
  ANONYMOUS: anonymous,
});

const newDataset = newDatasetBody({ mrn: 'MRN-1' });

const hospitalAdmins = (ok: number): Record<Actor, number> => ({
  SUPER_ADMIN: 403,
  HOSPITAL_ADMIN: ok,
  TEAM_LEAD: 403,
  TEAM_MEMBER: 403,
  GUEST: 403,
  OTHER_HOSPITAL: 403,
  ANONYMOUS: 401,
});

const superAdmins = (ok: number): Record<Actor, number> => ({
  ...hospitalAdmins(403),
  SUPER_ADMIN: ok,
  HOSPITAL_ADMIN: 403,
});
const userAdmins = (ok: number): Record<Actor, number> => ({ ...hospitalAdmins(ok), SUPER_ADMIN: ok });
/** Our lead's team: its members read it; the other hospital's lead gets 404. */
const teamReaders = (ok: number): Record<Actor, number> => ({ ...viewers(ok), SUPER_ADMIN: 403 });
const teamManagers = (ok: number): Record<Actor, number> => ({
  ...teamReaders(ok),
  TEAM_MEMBER: 403,
  GUEST: 403,
});
const systemAdmins = (get: boolean): Record<Actor, number> => ({
  SUPER_ADMIN: 200,
  HOSPITAL_ADMIN: get ? 200 : 403,
  TEAM_LEAD: 403,
  TEAM_MEMBER: 403,
  GUEST: 403,
  OTHER_HOSPITAL: 403,
  ANONYMOUS: 401,
});
/** Super admin and hospital admins; the other hospital's lead is stopped by the role gate (403). */
const oversight = (ok: number): Record<Actor, number> => ({
  SUPER_ADMIN: ok,
  HOSPITAL_ADMIN: ok,
  TEAM_LEAD: 403,
  TEAM_MEMBER: 403,
  GUEST: 403,
  OTHER_HOSPITAL: 403,
  ANONYMOUS: 401,
});
/** The team's lead or a hospital admin; the other hospital's lead does not find the team. */
const teamLeads = (ok: number): Record<Actor, number> => ({ ...staff(ok, ok, 403), OTHER_HOSPITAL: 404 });
const EXPECTATIONS: Record<string, Case> = {
  'GET /api/me/profile': {
    prepare: async () => ({ method: 'GET', path: '/api/me/profile' }),
    expect: everyone(200, 401),
  },
  'PUT /api/me/profile': {
    prepare: async () => ({ method: 'PUT', path: '/api/me/profile', body: { phone: '+1 312 555 0123' } }),
    expect: everyone(200, 401),
  },
  'POST /api/me/avatar': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/me/avatar',
      body: { contentType: 'image/png', sizeBytes: 1000 },
    }),
    expect: everyone(200, 401),
  },
  'GET /api/me/notification-preferences': {
    prepare: async () => ({ method: 'GET', path: '/api/me/notification-preferences' }),
    expect: everyone(200, 401),
  },
  'PUT /api/me/notification-preferences': {
    prepare: async () => ({
      method: 'PUT',
      path: '/api/me/notification-preferences',
      body: DEFAULT_NOTIFICATION_PREFERENCES,
    }),
    expect: everyone(200, 401),
  },
  'GET /api/system/policy': {
    prepare: async () => ({ method: 'GET', path: '/api/system/policy' }),
    expect: systemAdmins(true),
  },
  'PUT /api/system/policy': {
    prepare: async () => ({ method: 'PUT', path: '/api/system/policy', body: { policy: DEFAULT_SYSTEM_POLICY } }),
    expect: systemAdmins(false),
  },
  'GET /api/hospital-admin/settings': {
    prepare: async () => ({ method: 'GET', path: '/api/hospital-admin/settings' }),
    expect: hospitalAdmins(200),
  },
  'PUT /api/hospital-admin/settings': {
    prepare: async () => ({
      method: 'PUT',
      path: '/api/hospital-admin/settings',
      body: { profile: NORTHSIDE_DEMO_PROFILE, policy: DEFAULT_HOSPITAL_POLICY },
    }),
    expect: hospitalAdmins(200),
  },
  // Single sign-on (docs/sso.md): saved switched off, so no provider is read; a fresh domain per call.
  'GET /api/hospital-admin/sso': {
    prepare: async () => ({ method: 'GET', path: '/api/hospital-admin/sso' }),
    expect: hospitalAdmins(200),
  },
  'PUT /api/hospital-admin/sso': {
    prepare: async () => ({
      method: 'PUT',
      path: '/api/hospital-admin/sso',
      body: {
        issuer: 'https://idp.northside.demo.local',
        clientId: 'imaging-workspace',
        clientSecret: 'access-secret',
        domains: [`${fresh('sso')}.demo.local`],
        enabled: false,
      },
    }),
    expect: hospitalAdmins(200),
  },
  'DELETE /api/hospital-admin/sso': {
    prepare: async () => ({ method: 'DELETE', path: '/api/hospital-admin/sso' }),
    expect: hospitalAdmins(200),
  },
  'POST /api/hospital-admin/sso/test': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/hospital-admin/sso/test',
      body: { issuer: 'https://idp.northside.demo.local' },
    }),
    expect: hospitalAdmins(200),
  },
  'POST /api/hospital-admin/sso/saml-metadata': {
    // A document that is not metadata: read and refused in the answer (200), touching nothing.
    prepare: async () => ({
      method: 'POST',
      path: '/api/hospital-admin/sso/saml-metadata',
      body: { metadataXml: '<EntityDescriptor/>' },
    }),
    expect: hospitalAdmins(200),
  },
  'GET /api/teams/{teamId}/policy': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/policy` }),
    expect: teamLeads(200),
  },
  'PUT /api/teams/{teamId}/policy': {
    prepare: async () => ({
      method: 'PUT',
      path: `/api/teams/${TEAM}/policy`,
      body: { overrides: { patientShare: { maxOpens: 3 } } },
    }),
    expect: teamLeads(200),
  },
  'GET /api/audit': { prepare: async () => ({ method: 'GET', path: '/api/audit' }), expect: oversight(200) },
  'GET /api/audit/export.csv': {
    prepare: async () => ({ method: 'GET', path: '/api/audit/export.csv', query: { action: 'NO_SUCH_ACTION' } }),
    expect: oversight(200),
  },
  'POST /api/audit/exports': {
    prepare: async () => ({ method: 'POST', path: '/api/audit/exports', body: { action: 'NO_SUCH_ACTION' } }),
    expect: oversight(202),
  },
  // Only its starter (the hospital admin) follows an audit export; the super admin's jobs live elsewhere (404).
  'GET /api/audit/exports/{exportId}': {
    prepare: async () => ({ method: 'GET', path: `/api/audit/exports/${await auditExportJob()}` }),
    expect: { ...oversight(404), HOSPITAL_ADMIN: 200 },
  },
  'POST /api/audit/verify': {
    prepare: async () => ({ method: 'POST', path: '/api/audit/verify', body: {} }),
    expect: oversight(200),
  },
  'POST /api/audit/verifications': {
    prepare: async () => ({ method: 'POST', path: '/api/audit/verifications', body: {} }),
    expect: oversight(202),
  },
  'GET /api/compliance': { prepare: async () => ({ method: 'GET', path: '/api/compliance' }), expect: oversight(200) },
  // Every role has a dashboard; another hospital's caller reads their own (nothing of ours).
  'GET /api/dashboard': {
    prepare: async () => ({ method: 'GET', path: '/api/dashboard' }),
    expect: everyone(200, 401),
  },
  'GET /api/usage': { prepare: async () => ({ method: 'GET', path: '/api/usage' }), expect: oversight(200) },
  'GET /api/notifications': {
    prepare: async () => ({ method: 'GET', path: '/api/notifications' }),
    expect: everyone(200, 401),
  },
  'POST /api/notifications/read': {
    prepare: async () => ({ method: 'POST', path: '/api/notifications/read', body: {} }),
    expect: everyone(200, 401),
  },
  // A lead holds VIEW_ANALYTICS and reads their own team's (the other hospital's lead too); a member or guest needs it
  // granted (tests/integration/permission-checks.test.ts).
  'GET /api/reports': {
    prepare: async () => ({ method: 'GET', path: '/api/reports', query: { months: '3' } }),
    expect: { ...oversight(200), TEAM_LEAD: 200, OTHER_HOSPITAL: 200 },
  },
  'GET /api/health': { prepare: async () => ({ method: 'GET', path: '/api/health' }), expect: everyone(200, 200) },
  'GET /api/openapi.json': {
    prepare: async () => ({ method: 'GET', path: '/api/openapi.json' }),
    expect: everyone(200, 200),
  },
  'GET /api/me': { prepare: async () => ({ method: 'GET', path: '/api/me' }), expect: everyone(200, 401) },
  'POST /api/auth/logout': {
    prepare: async () => ({ method: 'POST', path: '/api/auth/logout' }),
    expect: everyone(200, 401),
  },
  // The other hospital's lead lists their own hospital (200, and none of ours: asserted below).
  'GET /api/datasets': {
    prepare: async () => ({ method: 'GET', path: '/api/datasets' }),
    expect: { ...staff(200, 200, 200), OTHER_HOSPITAL: 200 },
  },
  'POST /api/datasets': {
    prepare: async () => ({ method: 'POST', path: '/api/datasets', body: newDataset }),
    expect: { ...uploaders(201), OTHER_HOSPITAL: 201 },
  },
  'GET /api/datasets/{id}': {
    prepare: async () => ({
      method: 'GET',
      path: `/api/datasets/${(await dataset('COMPLETE', { withSeries: true })).id}`,
    }),
    expect: viewers(200),
  },
  'PATCH /api/datasets/{id}': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/datasets/${(await dataset('CREATED')).id}`,
      body: { studyDescription: 'Brain MRI follow-up' },
    }),
    expect: staff(200, 200, 200),
  },
  'DELETE /api/datasets/{id}': {
    prepare: async () => ({
      method: 'DELETE',
      path: `/api/datasets/${(await dataset('COMPLETE', { withSeries: true })).id}`,
    }),
    expect: staff(204, 204, 403),
  },
  'GET /api/datasets/{id}/series': {
    prepare: async () => ({
      method: 'GET',
      path: `/api/datasets/${(await dataset('COMPLETE', { withSeries: true })).id}/series`,
    }),
    expect: viewers(200),
  },
  'PATCH /api/datasets/{id}/series/selection': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/datasets/${(await dataset('CLASSIFYING', { withSeries: true })).id}/series/selection`,
      body: { seriesSelections: [{ seriesId: '1.2.3.4', selected: true }] },
    }),
    expect: staff(200, 200, 200),
  },
  'POST /api/datasets/{id}/series/{seriesId}/classify': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('CLASSIFYING', { withSeries: true })).id}/series/1.2.3.4/classify`,
      body: { classifiedType: 'T1' },
    }),
    expect: staff(200, 200, 200),
  },
  'POST /api/datasets/{id}/series/{seriesId}/release': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('COMPLETE', { heldSeries: true })).id}/series/1.2.3.4/release`,
    }),
    expect: staff(200, 200, 403),
  },
  'GET /api/datasets/{id}/series/{seriesId}/preview': {
    prepare: async () => ({
      method: 'GET',
      path: `/api/datasets/${(await dataset('COMPLETE', { heldSeries: true, storedInstance: true })).id}/series/1.2.3.4/preview`,
    }),
    expect: staff(200, 200, 403),
  },
  'POST /api/datasets/{id}/series/{seriesId}/redact': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('COMPLETE', { heldSeries: true, storedInstance: true })).id}/series/1.2.3.4/redact`,
      body: { rectangles: [{ x: 0, y: 0, width: 2, height: 2 }] },
    }),
    expect: staff(200, 200, 403),
  },
  'GET /api/datasets/{id}/assets': {
    prepare: async () => ({ method: 'GET', path: `/api/datasets/${(await dataset('COMPLETE')).id}/assets` }),
    expect: viewers(200),
  },
  'GET /api/datasets/{id}/history': {
    prepare: async () => ({ method: 'GET', path: `/api/datasets/${(await dataset('COMPLETE')).id}/history` }),
    expect: staff(200, 200, 200),
  },
  'POST /api/datasets/{id}/retry': {
    prepare: async () => ({ method: 'POST', path: `/api/datasets/${(await dataset('FAILED')).id}/retry` }),
    expect: staff(200, 200, 200),
  },
  'GET /api/datasets/recycle-bin': {
    prepare: async () => ({ method: 'GET', path: '/api/datasets/recycle-bin' }),
    expect: hospitalAdmins(200),
  },
  'POST /api/datasets/{id}/restore': {
    prepare: async () => ({ method: 'POST', path: `/api/datasets/${await binned()}/restore` }),
    expect: hospitalAdmins(200),
  },
  // EXPORT_DATA: an admin holds '*', a lead it by default; a member or guest not (docs/exports.md).
  'POST /api/datasets/{id}/exports': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('COMPLETE')).id}/exports`,
      body: { format: 'dicom' },
    }),
    expect: { ...viewers(403), HOSPITAL_ADMIN: 202, TEAM_LEAD: 202 },
  },
  // Only its requester (here the lead) reads an export; anyone else of the hospital gets 404 as for none.
  'GET /api/datasets/{id}/exports/{exportId}': {
    prepare: async () => {
      const { id } = await dataset('COMPLETE');
      return { method: 'GET', path: `/api/datasets/${id}/exports/${await exportJob(id)}` };
    },
    expect: { ...viewers(404), TEAM_LEAD: 200 },
  },
  'PUT /api/datasets/{id}/legal-hold': {
    prepare: async () => ({
      method: 'PUT',
      path: `/api/datasets/${(await dataset('COMPLETE')).id}/legal-hold`,
      body: { on: true, reason: 'Litigation 42' },
    }),
    expect: teamLeads(200),
  },
  'POST /api/datasets/{id}/upload/session': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('CREATED')).id}/upload/session`,
      body: { files: [{ fileKey: fileKeyOf('a/1.dcm'), sizeBytes: 1000 }] },
    }),
    expect: uploaders(201),
  },
  'GET /api/uploads/{sessionId}': {
    prepare: async () => ({
      method: 'GET',
      path: `/api/uploads/${(await dataset('UPLOADING', { upload: 'parts-stored' })).sessionId}`,
    }),
    expect: uploaders(200),
  },
  'POST /api/uploads/{sessionId}/parts': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/uploads/${(await dataset('UPLOADING', { upload: 'open' })).sessionId}/parts`,
      body: { partNumbers: [1] },
    }),
    expect: uploaders(200),
  },
  'POST /api/uploads/{sessionId}/complete': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/uploads/${(await dataset('UPLOADING', { upload: 'parts-stored' })).sessionId}/complete`,
    }),
    expect: uploaders(200),
  },
  'GET /api/hospital-admin/deidentification-policy': {
    prepare: async () => ({ method: 'GET', path: '/api/hospital-admin/deidentification-policy' }),
    expect: hospitalAdmins(200),
  },
  'PUT /api/hospital-admin/deidentification-policy': {
    prepare: async () => ({
      method: 'PUT',
      path: '/api/hospital-admin/deidentification-policy',
      body: DEFAULT_DEIDENTIFICATION_POLICY,
    }),
    expect: hospitalAdmins(200),
  },

  'GET /api/hospitals': { prepare: async () => ({ method: 'GET', path: '/api/hospitals' }), expect: superAdmins(200) },
  'POST /api/hospitals': {
    prepare: async () => {
      const id = fresh('new');
      return {
        method: 'POST',
        path: '/api/hospitals',
        body: {
          name: `Added Hospital ${id}`,
          ...HOSPITAL_DETAILS,
          subscriptionPlan: 'PRO',
          adminFirstName: 'Robin',
          adminLastName: 'Hale',
          adminEmail: `${id}@added.test`,
        },
      };
    },
    expect: superAdmins(201),
  },
  'GET /api/hospitals/{hospitalId}': {
    prepare: async () => ({ method: 'GET', path: `/api/hospitals/${(await orgHospital()).id}` }),
    expect: superAdmins(200),
  },
  'PATCH /api/hospitals/{hospitalId}': {
    prepare: async () => {
      const hospital = await orgHospital();
      return {
        method: 'PATCH',
        path: `/api/hospitals/${hospital.id}`,
        body: { name: hospital.name, ...HOSPITAL_DETAILS, city: 'Peoria', subscriptionPlan: 'ENTERPRISE' },
      };
    },
    expect: superAdmins(200),
  },
  'DELETE /api/hospitals/{hospitalId}': {
    prepare: async () => {
      const hospital = await orgHospital();
      return { method: 'DELETE', path: `/api/hospitals/${hospital.id}`, body: { confirmName: hospital.name } };
    },
    expect: superAdmins(202),
  },
  'POST /api/hospitals/{hospitalId}/restore': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/hospitals/${(await orgHospital('DEACTIVATED')).id}/restore`,
    }),
    expect: superAdmins(202),
  },
  'GET /api/hospital-admin/overview': {
    prepare: async () => ({ method: 'GET', path: '/api/hospital-admin/overview' }),
    expect: hospitalAdmins(200),
  },

  // The other hospital's lead lists their own hospital's departments; the super admin its system tenant's (none).
  'GET /api/departments': {
    prepare: async () => ({ method: 'GET', path: '/api/departments' }),
    expect: { ...viewers(200), SUPER_ADMIN: 200, OTHER_HOSPITAL: 200 },
  },
  'POST /api/departments': {
    prepare: async () => ({ method: 'POST', path: '/api/departments', body: { name: 'Cardiology' } }),
    expect: hospitalAdmins(201),
  },
  'PATCH /api/departments/{departmentId}': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/departments/${await orgDepartment()}`,
      body: { description: 'Renamed' },
    }),
    expect: hospitalAdmins(200),
  },
  'DELETE /api/departments/{departmentId}': {
    prepare: async () => ({ method: 'DELETE', path: `/api/departments/${await orgDepartment()}` }),
    expect: hospitalAdmins(204),
  },

  'GET /api/teams': {
    prepare: async () => ({ method: 'GET', path: '/api/teams' }),
    expect: { ...viewers(200), SUPER_ADMIN: 200, OTHER_HOSPITAL: 200 },
  },
  'POST /api/teams': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/teams',
      body: { name: 'Spine Imaging', departmentId: DEPARTMENT },
    }),
    expect: hospitalAdmins(201),
  },
  'GET /api/teams/{teamId}': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}` }),
    expect: teamReaders(200),
  },
  'PATCH /api/teams/{teamId}': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/teams/${TEAM}`,
      body: { settings: { dataRetentionDays: 365 } },
    }),
    expect: teamManagers(200),
  },
  'POST /api/teams/{teamId}/archive': {
    prepare: async () => ({ method: 'POST', path: `/api/teams/${await orgTeam()}/archive` }),
    expect: hospitalAdmins(200),
  },
  'POST /api/teams/{teamId}/restore': {
    prepare: async () => ({ method: 'POST', path: `/api/teams/${await orgTeam(false)}/restore` }),
    expect: hospitalAdmins(200),
  },
  'GET /api/teams/{teamId}/members': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/members` }),
    expect: teamReaders(200),
  },
  // The lead and admins by role; a member or guest only with VIEW_ANALYTICS, which the demo's do not hold.
  'GET /api/teams/{teamId}/analytics': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/analytics`, query: { period: 'LAST_90_DAYS' } }),
    expect: teamManagers(200),
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/role': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await orgUser()}/role`,
      body: { role: 'GUEST' },
    }),
    expect: teamManagers(200),
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/permissions': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/teams/${TEAM}/members/${await orgUser()}/permissions`,
      body: { permissions: ['VIEW_DATASETS'] },
    }),
    expect: teamManagers(200),
  },
  'DELETE /api/teams/{teamId}/members/{memberId}': {
    prepare: async () => ({ method: 'DELETE', path: `/api/teams/${TEAM}/members/${await orgUser()}` }),
    expect: teamManagers(204),
  },

  // The super admin names the hospital; a hospital admin naming their own is the same as naming none.
  'GET /api/users': {
    prepare: async () => ({ method: 'GET', path: '/api/users', query: { hospitalId: HOSPITAL } }),
    expect: userAdmins(200),
  },
  'GET /api/users/{userId}': {
    prepare: async () => ({ method: 'GET', path: `/api/users/${await orgUser()}`, query: { hospitalId: HOSPITAL } }),
    expect: userAdmins(200),
  },
  'PATCH /api/users/{userId}/role': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/users/${await orgUser()}/role`,
      query: { hospitalId: HOSPITAL },
      body: { role: 'GUEST' },
    }),
    expect: userAdmins(200),
  },
  'PATCH /api/users/{userId}/team': {
    prepare: async () => ({
      method: 'PATCH',
      path: `/api/users/${await orgUser()}/team`,
      query: { hospitalId: HOSPITAL },
      body: { teamId: null },
    }),
    expect: userAdmins(200),
  },
  'POST /api/users/{userId}/disable': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/users/${await orgUser()}/disable`,
      query: { hospitalId: HOSPITAL },
    }),
    expect: userAdmins(200),
  },
  'POST /api/users/{userId}/enable': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/users/${await orgUser({ status: 'DISABLED' })}/enable`,
      query: { hospitalId: HOSPITAL },
    }),
    expect: userAdmins(200),
  },
  'POST /api/users/{userId}/reset-mfa': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/users/${await orgUser()}/reset-mfa`,
      query: { hospitalId: HOSPITAL },
    }),
    expect: userAdmins(200),
  },
  'GET /api/invitations': {
    prepare: async () => ({ method: 'GET', path: '/api/invitations' }),
    expect: hospitalAdmins(200),
  },
  'POST /api/invitations': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/invitations',
      body: { fullName: 'Robin Invitee', email: freshEmail(), role: 'team_member' },
    }),
    expect: hospitalAdmins(201),
  },
  'POST /api/invitations/bulk': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/invitations/bulk',
      body: {
        mode: 'basic',
        invitations: [{ fullName: 'Robin Invitee', email: freshEmail(), role: 'guest', department: '', team: '' }],
      },
    }),
    expect: hospitalAdmins(202),
  },
  'GET /api/jobs/{jobId}': {
    prepare: async () => ({ method: 'GET', path: `/api/jobs/${await job()}` }),
    expect: jobOwners(200),
  },
  'GET /api/jobs/{jobId}/results': {
    prepare: async () => ({ method: 'GET', path: `/api/jobs/${await job()}/results`, query: { limit: '10' } }),
    expect: jobOwners(200),
  },
  'POST /api/invitations/{invitationId}/resend': {
    prepare: async () => ({ method: 'POST', path: `/api/invitations/${(await invitation()).id}/resend` }),
    expect: hospitalAdmins(200),
  },
  'DELETE /api/invitations/{invitationId}': {
    prepare: async () => ({ method: 'DELETE', path: `/api/invitations/${(await invitation()).id}` }),
    expect: hospitalAdmins(200),
  },
  'GET /api/teams/{teamId}/invitations': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/invitations` }),
    expect: teamLeads(200),
  },
  'POST /api/teams/{teamId}/invitations': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/teams/${TEAM}/invitations`,
      body: { email: freshEmail(), role: 'MEMBER', permissions: ['VIEW_DATASETS'], expiresInDays: 7 },
    }),
    expect: teamLeads(201),
  },
  'POST /api/teams/{teamId}/invitations/{invitationId}/resend': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/teams/${TEAM}/invitations/${(await invitation()).id}/resend`,
    }),
    expect: teamLeads(200),
  },
  'DELETE /api/teams/{teamId}/invitations/{invitationId}': {
    prepare: async () => ({
      method: 'DELETE',
      path: `/api/teams/${TEAM}/invitations/${(await invitation()).id}`,
    }),
    expect: teamLeads(200),
  },
  // Shares: the dataset's owner (the member), our lead or a hospital admin; the core answers others 404 or 403.
  'GET /api/datasets/{id}/team-shares': {
    prepare: async () => ({ method: 'GET', path: `/api/datasets/${(await dataset('COMPLETE')).id}/team-shares` }),
    expect: staff(200, 200, 200),
  },
  'POST /api/datasets/{id}/team-shares': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('COMPLETE')).id}/team-shares`,
      body: { teamId: 'team-northside-stroke', permissions: ['view'] },
    }),
    expect: staff(201, 201, 201),
  },
  'DELETE /api/datasets/{id}/team-shares/{shareId}': {
    prepare: async () => {
      const share = await teamShare();
      return { method: 'DELETE', path: `/api/datasets/${share.datasetId}/team-shares/${share.shareId}` };
    },
    expect: staff(200, 200, 200),
  },
  'GET /api/teams/{teamId}/dicom-shares': {
    prepare: async () => ({ method: 'GET', path: `/api/teams/${TEAM}/dicom-shares` }),
    expect: staff(200, 200, 200),
  },
  // Each caller's own list: the other hospital's lead gets theirs (empty of ours).
  'GET /api/shares/received': {
    prepare: async () => ({ method: 'GET', path: '/api/shares/received' }),
    expect: { ...viewers(200), OTHER_HOSPITAL: 200 },
  },
  // The approval queue: a lead (their team's waiting shares) or a hospital admin; the other hospital's lead has an
  // empty queue of their own and does not find ours.
  'GET /api/shares/approvals': {
    prepare: async () => ({ method: 'GET', path: '/api/shares/approvals' }),
    expect: { ...teamLeads(200), OTHER_HOSPITAL: 200 },
  },
  'POST /api/shares/approvals/{shareId}/approve': {
    prepare: async () => ({ method: 'POST', path: `/api/shares/approvals/${await waitingShare()}/approve` }),
    expect: teamLeads(200),
  },
  'POST /api/shares/approvals/{shareId}/refuse': {
    prepare: async () => ({ method: 'POST', path: `/api/shares/approvals/${await waitingShare()}/refuse` }),
    expect: teamLeads(200),
  },
  'GET /api/datasets/{id}/patient-shares': {
    prepare: async () => ({ method: 'GET', path: `/api/datasets/${(await dataset('COMPLETE')).id}/patient-shares` }),
    expect: staff(200, 200, 200),
  },
  'POST /api/datasets/{id}/patient-shares': {
    prepare: async () => ({
      method: 'POST',
      path: `/api/datasets/${(await dataset('COMPLETE')).id}/patient-shares`,
      // The hospital's defaults keep shares inside its own domain, its admins' (docs/domain.md#share-policy).
      body: {
        recipientEmail: 'patient@northside.demo.local',
        expiresInHours: 24,
        maxOpens: 1,
        watermark: true,
        allowDownloads: false,
        scopes: ['viewer_only'],
      },
    }),
    expect: staff(201, 201, 201),
  },
  'DELETE /api/datasets/{id}/patient-shares/{shareId}': {
    prepare: async () => {
      const share = await patientShare();
      return { method: 'DELETE', path: `/api/datasets/${share.datasetId}/patient-shares/${share.shareId}` };
    },
    expect: staff(200, 200, 200),
  },
  'GET /api/datasets/{id}/patient-shares/{shareId}/access-log': {
    prepare: async () => {
      const share = await patientShare();
      return { method: 'GET', path: `/api/datasets/${share.datasetId}/patient-shares/${share.shareId}/access-log` };
    },
    expect: staff(200, 200, 200),
  },
  // The patient's routes are public: the link's token (then the session) is the key, whoever is signed in.
  'POST /api/patient-access/code': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/patient-access/code',
      body: { token: (await patientShare()).token },
    }),
    expect: everyone(200, 200),
  },
  'POST /api/patient-access/verify': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/patient-access/verify',
      body: { token: (await patientShare()).token, code: PATIENT_CODE },
    }),
    expect: everyone(200, 200),
  },
  'POST /api/patient-access/study': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/patient-access/study',
      body: { session: (await patientShare()).session },
    }),
    expect: everyone(200, 200),
  },
  'POST /api/patient-access/download': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/patient-access/download',
      body: { session: (await patientShare()).session, assetId: 'asset-1' },
    }),
    expect: everyone(200, 200),
  },
  // The login page's e-mail step is public: it answers only whether to redirect (docs/sso.md#domain-routing).
  'GET /api/auth/sso-route': {
    prepare: async () => ({
      method: 'GET',
      path: '/api/auth/sso-route',
      query: { email: 'robin@northside.demo.local' },
    }),
    expect: everyone(200, 200),
  },
  // The invitee's routes are public: the link's token is the key, whoever (if anyone) is signed in.
  'GET /api/invitations/preview': {
    prepare: async () => ({
      method: 'GET',
      path: '/api/invitations/preview',
      query: { token: (await invitation()).token },
    }),
    expect: everyone(200, 200),
  },
  'POST /api/invitations/accept': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/invitations/accept',
      body: {
        token: (await invitation()).token,
        firstName: 'Robin',
        lastName: 'Invitee',
        password: 'Joining-Pass-2026!',
      },
    }),
    expect: everyone(200, 200),
  },
  'POST /api/invitations/decline': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/invitations/decline',
      body: { token: (await invitation()).token },
    }),
    expect: everyone(200, 200),
  },
  // Integrations (docs/dicom-intake.md): hospital admins only; the other hospital's lead is stopped by the role gate.
  'GET /api/integrations': {
    prepare: async () => ({ method: 'GET', path: '/api/integrations' }),
    expect: hospitalAdmins(200),
  },
  'POST /api/integrations/dicomweb-clients': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/integrations/dicomweb-clients',
      body: { name: 'Access PACS', teamId: TEAM },
    }),
    expect: hospitalAdmins(201),
  },
  'POST /api/integrations/dicom-nodes': {
    prepare: async () => ({
      method: 'POST',
      path: '/api/integrations/dicom-nodes',
      body: { name: 'Access modality', teamId: TEAM, aeTitle: `AE${++counter}`, allowedAddresses: ['10.0.0.0/8'] },
    }),
    expect: hospitalAdmins(201),
  },
  'DELETE /api/integrations/{integrationId}': {
    prepare: async () => ({ method: 'DELETE', path: `/api/integrations/${await integration()}` }),
    expect: hospitalAdmins(200),
  },
  'POST /api/integrations/dicomweb-index': {
    prepare: async () => ({ method: 'POST', path: '/api/integrations/dicomweb-index' }),
    expect: hospitalAdmins(202),
  },
  'POST /api/reports/recount': {
    prepare: async () => ({ method: 'POST', path: '/api/reports/recount' }),
    expect: hospitalAdmins(202),
  },
  // SCIM tokens (docs/sso.md#provisioning-scim): a hospital admin's, each call on a fresh token of the hospital.
  'GET /api/hospital-admin/scim-tokens': {
    prepare: async () => ({ method: 'GET', path: '/api/hospital-admin/scim-tokens' }),
    expect: hospitalAdmins(200),
  },
  'POST /api/hospital-admin/scim-tokens': {
    prepare: async () => ({ method: 'POST', path: '/api/hospital-admin/scim-tokens', body: { name: 'Access IdP' } }),
    expect: hospitalAdmins(201),
  },
  'DELETE /api/hospital-admin/scim-tokens/{tokenId}': {
    prepare: async () => {
      const id = fresh('scim');
      await h.deps.scimTokens.create({
        id,
        hospitalId: HOSPITAL,
        name: 'Fixture IdP',
        hash: createHash('sha256').update(id).digest('hex'),
        createdAt: '2026-01-01T00:00:00.000Z',
        createdByUserId: h.sub(ACTORS.HOSPITAL_ADMIN!),
      });
      return { method: 'DELETE', path: `/api/hospital-admin/scim-tokens/${id}` };
    },
    expect: hospitalAdmins(200),
  },
  // SCIM takes a hospital's SCIM token only: every user's ID token and no token at all are refused (401), in SCIM's
  // error schema; what a token reaches is tested in tests/integration/scim.test.ts.
  ...Object.fromEntries(
    ROUTES.filter((route) => route.auth === 'scim').map((route): [string, Case] => [
      routeKey(route),
      {
        prepare: async () => ({
          method: route.method,
          path: route.path.replace('{id}', h.sub(ACTORS.TEAM_MEMBER!)),
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        }),
        expect: everyone(401, 401),
      },
    ]),
  ),
  // DICOMweb takes an integration's access token only: every user's ID token and no token at all are refused (401);
  // what a client of each hospital reaches is tested in tests/integration/dicom-intake.test.ts.
  ...Object.fromEntries(
    ROUTES.filter((route) => route.auth === 'client').map((route): [string, Case] => [
      routeKey(route),
      {
        prepare: async () => ({
          method: route.method,
          path: route.path
            .replace('{study}', '1.2.3')
            .replace('{series}', '1.2.3.4')
            .replace('{instance}', '1.2.3.4.5')
            .replace('{frames}', '1')
            .replace('{tag}', '7FE00010'),
        }),
        expect: everyone(401, 401),
      },
    ]),
  ),
};

function inProcess(): () => Promise<Backend> {
  return async () => {
    const harness: Harness = await startHarness();
    return {
      deps: harness.deps,
      sub: subOf,
      uploadPart: async (_key, uploadId, bytes) => harness.objects.uploadPart(uploadId, 1, bytes),
      call: (method, path, options) => harness.call(method, path, options),
      stop: () => harness.stop(),
    };
  };
}

/** The local twin from the outside: real sign-in at its Cognito stand-in, requests over HTTP with the ID token. */
function throughTwin(): () => Promise<Backend> {
  return async () => {
    const stack: TestStack = await startTestStack();
    const deps = await createAwsDeps();
    const tokens = new Map<string, string>();
    const subs = new Map<string, string>();
    // The other hospital's admin too: isolation tests act as them.
    for (const email of [...Object.values(ACTORS), 'admin@lakeview.demo.local']) {
      if (!email) continue;
      const token = await signIn(stack.url, email);
      tokens.set(email, token);
      subs.set(email, JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sub as string);
    }
    return {
      deps,
      sub: (email) => subs.get(email)!,
      async uploadPart(objectKey, uploadId, bytes) {
        const url = await deps.objects.presignPart('uploads', objectKey, uploadId, 1, 300);
        const response = await fetch(url, { method: 'PUT', body: Buffer.from(bytes) });
        expect(response.status).toBe(200);
        return response.headers.get('etag')!;
      },
      async call(method, path, options) {
        const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
        const response = await apiFetch(stack.url, options.as ? tokens.get(options.as) : undefined, `${path}${query}`, {
          method,
          body: options.body,
        });
        const text = await response.text();
        // Every answer of the twin's front door is held against the OpenAPI document too (docs/api-contract.md).
        const matched = matchRoute(method, path);
        if (matched)
          assertInsideContract(method, matched.route, {
            status: response.status,
            contentType: response.headers.get('content-type') ?? undefined,
            body: text,
          });
        const json = response.headers.get('content-type')?.includes('json') ?? true;
        return { status: response.status, body: text ? (json ? JSON.parse(text) : text) : undefined };
      },
      stop: () => stack.dispose(),
    };
  };
}

describe.each([
  ['in process, through the domain handlers', inProcess()],
  ['through the local twin over HTTP', throughTwin()],
])('access control over every route (%s)', (_mode, start) => {
  beforeAll(async () => {
    h = await start();
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('has an expectation for every route of the table and no stale ones', () => {
    const keys = ROUTES.map(routeKey);
    expect(keys.filter((k) => !EXPECTATIONS[k])).toEqual([]);
    expect(Object.keys(EXPECTATIONS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  for (const route of ROUTES) {
    const key = routeKey(route);
    it(`${key} answers each role as expected`, async () => {
      const spec = EXPECTATIONS[key];
      expect(spec, `no expectation for ${key}`).toBeDefined();
      const got: Partial<Record<Actor, number>> = {};
      for (const actor of Object.keys(ACTORS) as Actor[]) {
        // Prepare
        const call = await spec!.prepare();
        // Act
        const response = await h.call(call.method, call.path, {
          as: ACTORS[actor],
          body: call.body,
          query: call.query,
        });
        got[actor] = response.status;
        if (response.status >= 400 && route.auth === 'scim')
          expect(response.body.schemas, `${key} as ${actor}`).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
        else if (response.status >= 400) expect(response.body.error.code, `${key} as ${actor}`).toMatch(/^[A-Z_]+$/);
      }
      // Assess
      expect(got).toEqual(spec!.expect);
    });
  }

  describe('tenant and team isolation', () => {
    it("answers 404 for another hospital's job and its results, as for a job that does not exist", async () => {
      // Arrange
      const ours = await job();
      const theirAdmin = 'admin@lakeview.demo.local';

      // Act
      const read = await h.call('GET', `/api/jobs/${ours}`, { as: theirAdmin });
      const results = await h.call('GET', `/api/jobs/${ours}/results`, { as: theirAdmin });
      const unknown = await h.call('GET', '/api/jobs/no-such-job', { as: theirAdmin });

      // Assert
      expect([read.status, read.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
      expect([results.status, results.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
      expect(read.body).toEqual(unknown.body);
      const mine = await h.call('GET', `/api/jobs/${ours}/results`, { as: ACTORS.HOSPITAL_ADMIN });
      expect(mine.body).toMatchObject({ items: [{ seq: 1, outcome: 'SUCCEEDED' }], nextToken: null });
    });

    it("never lists another hospital's datasets", async () => {
      const ours = await dataset('COMPLETE');
      const theirs = await h.call('GET', '/api/datasets', { as: ACTORS.OTHER_HOSPITAL, query: { limit: '48' } });
      expect(theirs.status).toBe(200);
      expect(theirs.body.items.map((d: { id: string }) => d.id)).not.toContain(ours.id);
      expect(theirs.body.items.every((d: { hospitalId: string }) => d.hospitalId === 'hosp-lakeview')).toBe(true);
    });

    it('answers 404 for a dataset of another team in the same hospital, and shows it to the hospital admin', async () => {
      const other = await dataset('COMPLETE', { teamId: 'team-northside-stroke' });
      expect((await h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.GUEST })).status).toBe(404);
      expect((await h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.TEAM_LEAD })).status).toBe(404);
      expect((await h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.TEAM_MEMBER })).status).toBe(404);
      expect((await h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.HOSPITAL_ADMIN })).status).toBe(200);
      const list = await h.call('GET', '/api/datasets', { as: ACTORS.TEAM_LEAD, query: { limit: '48' } });
      expect(list.body.items.map((d: { id: string }) => d.id)).not.toContain(other.id);
    });

    it('shows a dataset shared with the team to its members, marked, read-only, and hides it again on revoke', async () => {
      // Prepare: a dataset of the stroke team, which our lead cannot see.
      const other = await dataset('COMPLETE', { teamId: 'team-northside-stroke', withSeries: true });
      const read = () => h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.TEAM_LEAD });
      expect((await read()).status).toBe(404);
      // Act: the hospital admin shares it with our team.
      const created = await h.call('POST', `/api/datasets/${other.id}/team-shares`, {
        as: ACTORS.HOSPITAL_ADMIN,
        body: { teamId: TEAM, permissions: ['view'] },
      });
      expect(created.status).toBe(201);
      // Assess
      const seen = await read();
      expect(seen.status).toBe(200);
      expect(seen.body.sharedWithYou).toEqual(['view']);
      const received = await h.call('GET', '/api/shares/received', { as: ACTORS.TEAM_MEMBER });
      expect(received.body.items.map((d: { id: string }) => d.id)).toContain(other.id);
      const edit = await h.call('PATCH', `/api/datasets/${other.id}`, {
        as: ACTORS.TEAM_LEAD,
        body: { studyDescription: 'Changed' },
      });
      expect(edit.status).toBe(404);
      const theirs = await h.call('GET', `/api/datasets/${other.id}`, { as: ACTORS.OTHER_HOSPITAL });
      expect(theirs.status).toBe(404);
      const revoked = await h.call('DELETE', `/api/datasets/${other.id}/team-shares/${created.body.items[0].id}`, {
        as: ACTORS.HOSPITAL_ADMIN,
      });
      expect(revoked.status).toBe(200);
      expect((await read()).status).toBe(404);
      const after = await h.call('GET', '/api/shares/received', { as: ACTORS.TEAM_MEMBER });
      expect(after.body.items.map((d: { id: string }) => d.id)).not.toContain(other.id);
    });

    it('answers an unknown patient link and a revoked one alike, and ends an open page on revoke', async () => {
      const share = await patientShare();
      const unknown = await h.call('POST', '/api/patient-access/code', {
        body: { token: randomBytes(32).toString('base64url') },
      });
      const study = () => h.call('POST', '/api/patient-access/study', { body: { session: share.session } });
      expect((await study()).status).toBe(200);
      const revoke = await h.call('DELETE', `/api/datasets/${share.datasetId}/patient-shares/${share.shareId}`, {
        as: ACTORS.TEAM_MEMBER,
      });
      expect(revoke.body.share.status).toBe('REVOKED');
      const revoked = await h.call('POST', '/api/patient-access/code', { body: { token: share.token } });
      expect([revoked.status, revoked.body]).toEqual([unknown.status, unknown.body]);
      expect(unknown.body.error.code).toBe('SHARE_LINK_INVALID');
      expect((await study()).status).toBe(404);
    });

    it("lets no member change a teammate's series, and no one change them once processing has started", async () => {
      const leads = await dataset('CLASSIFYING', { owner: ACTORS.TEAM_LEAD, withSeries: true });
      const classify = (id: string, as: string) =>
        h.call('POST', `/api/datasets/${id}/series/1.2.3.4/classify`, { as, body: { classifiedType: 'FLAIR' } });
      const select = (id: string, as: string) =>
        h.call('PATCH', `/api/datasets/${id}/series/selection`, {
          as,
          body: { seriesSelections: [{ seriesId: '1.2.3.4', selected: true }] },
        });
      expect((await classify(leads.id, ACTORS.TEAM_MEMBER!)).status).toBe(403);
      expect((await select(leads.id, ACTORS.TEAM_MEMBER!)).status).toBe(403);
      expect((await classify(leads.id, ACTORS.TEAM_LEAD!)).status).toBe(200);
      const complete = await dataset('COMPLETE', { withSeries: true });
      for (const as of [ACTORS.TEAM_MEMBER!, ACTORS.TEAM_LEAD!, ACTORS.HOSPITAL_ADMIN!]) {
        const refused = await classify(complete.id, as);
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('INVALID_STATE');
        expect((await select(complete.id, as)).status).toBe(409);
      }
    });

    it("answers 404 to a hospital admin naming another hospital's users, teams or departments", async () => {
      const theirs = 'admin@lakeview.demo.local';
      expect(
        (await h.call('GET', '/api/users', { as: ACTORS.HOSPITAL_ADMIN, query: { hospitalId: 'hosp-lakeview' } }))
          .status,
      ).toBe(404);
      const ours = await orgUser();
      expect((await h.call('GET', `/api/users/${ours}`, { as: theirs })).status).toBe(404);
      expect((await h.call('POST', `/api/users/${ours}/disable`, { as: theirs })).status).toBe(404);
      expect((await h.call('GET', `/api/teams/${TEAM}`, { as: theirs })).status).toBe(404);
      expect(
        (await h.call('PATCH', `/api/users/${ours}/team`, { as: theirs, body: { teamId: 'team-lakeview-mri' } }))
          .status,
      ).toBe(404);
      expect((await h.call('DELETE', `/api/departments/${DEPARTMENT}`, { as: theirs })).status).toBe(404);
      const lead = await h.call('GET', '/api/teams/team-northside-stroke', { as: ACTORS.TEAM_LEAD });
      expect(lead.status).toBe(404);
    });

    it("gives the super admin a named hospital's departments and teams, and 404 to a hospital admin naming another", async () => {
      const query = { hospitalId: HOSPITAL };
      const departments = await h.call('GET', '/api/departments', { as: ACTORS.SUPER_ADMIN, query });
      expect(departments.status).toBe(200);
      expect(departments.body.items.map((d: { id: string }) => d.id)).toContain(DEPARTMENT);
      const teams = await h.call('GET', '/api/teams', { as: ACTORS.SUPER_ADMIN, query });
      expect(teams.body.items.map((t: { id: string }) => t.id)).toContain(TEAM);
      expect((await h.call('GET', '/api/teams', { as: ACTORS.SUPER_ADMIN })).body.items).toEqual([]);
      const other = { hospitalId: 'hosp-lakeview' };
      const refused = await h.call('GET', '/api/departments', { as: ACTORS.HOSPITAL_ADMIN, query: other });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('HOSPITAL_NOT_FOUND');
      expect((await h.call('GET', '/api/teams', { as: ACTORS.HOSPITAL_ADMIN, query: other })).status).toBe(404);
    });

    it('takes the hospital from the token and the user record, never from the body', async () => {
      const created = await h.call('POST', '/api/datasets', {
        as: ACTORS.TEAM_MEMBER,
        body: { ...newDataset, hospitalId: 'hosp-lakeview', teamId: 'x' },
      });
      expect(created.status).toBe(201);
      expect(created.body.hospitalId).toBe(HOSPITAL);
      expect(created.body.teamId).toBe(TEAM);
      expect(JSON.stringify(created.body)).not.toContain('MRN-1');
    });

    it("rejects a disabled or invited user (403) and a token whose group no longer matches the user's role (403)", async () => {
      const email = ACTORS.TEAM_MEMBER!;
      const record = (await h.deps.directory.getUser(HOSPITAL, h.sub(email)))!;
      await h.deps.directory.putUser({ ...record, status: 'DISABLED' });
      expect((await h.call('GET', '/api/me', { as: email })).status).toBe(403);
      await h.deps.directory.putUser({ ...record, status: 'INVITED' });
      expect((await h.call('GET', '/api/me', { as: email })).status).toBe(403);
      await h.deps.directory.putUser({ ...record, status: 'ACTIVE' });
      expect((await h.call('GET', '/api/me', { as: email })).status).toBe(200);
      await h.deps.directory.putUser({ ...record, role: 'TEAM_LEAD' });
      expect((await h.call('GET', '/api/me', { as: email })).status).toBe(403);
      await h.deps.directory.putUser(record);
    });
  });
});

/** What every ID token of the harness's pool and site client carries. */
const ID_TOKEN = { token_use: 'id', aud: HARNESS_POOL.clientId, iss: HARNESS_POOL.issuer };

describe('claims that the authorizer passed but the user record does not back (in process)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('answers 401 for a sub with no user record, also when the hospital claim names another tenant', async () => {
    const member = harness.user(ACTORS.TEAM_MEMBER!);
    expect(
      (
        await harness.call('GET', '/api/me', {
          claims: {
            ...ID_TOKEN,
            sub: 'sub-unknown',
            email: 'x@y',
            'custom:hospitalId': HOSPITAL,
            'cognito:groups': 'TEAM_MEMBER',
          },
        })
      ).status,
    ).toBe(401);
    const spoofed = {
      ...ID_TOKEN,
      sub: subOf(member.email),
      email: member.email,
      'custom:hospitalId': 'hosp-lakeview',
      'cognito:groups': 'TEAM_MEMBER',
    };
    expect((await harness.call('GET', '/api/me', { claims: spoofed })).status).toBe(401);
  });

  it('answers 403 when the groups claim names a role the user does not have', async () => {
    const member = harness.user(ACTORS.TEAM_MEMBER!);
    const forged = {
      ...ID_TOKEN,
      sub: subOf(member.email),
      email: member.email,
      'custom:hospitalId': HOSPITAL,
      'cognito:groups': 'HOSPITAL_ADMIN,TEAM_MEMBER',
    };
    expect((await harness.call('GET', '/api/datasets', { claims: forged })).status).toBe(403);
    const plain = { ...forged, 'cognito:groups': 'TEAM_MEMBER' };
    expect((await harness.call('GET', '/api/datasets', { claims: plain })).status).toBe(200);
  });

  it("answers 401 for a valid user's token issued to another app client or pool, or for an access token", async () => {
    const member = harness.user(ACTORS.TEAM_MEMBER!);
    const claims = {
      ...ID_TOKEN,
      sub: subOf(member.email),
      email: member.email,
      'custom:hospitalId': HOSPITAL,
      'cognito:groups': 'TEAM_MEMBER',
    };
    expect((await harness.call('GET', '/api/me', { claims })).status).toBe(200);
    for (const wrong of [
      { aud: 'another-client' },
      { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other' },
      { token_use: 'access' },
    ])
      expect((await harness.call('GET', '/api/me', { claims: { ...claims, ...wrong } })).status).toBe(401);
  });

  it("keeps each hospital's de-identification policy to itself and enforces it on dataset creation", async () => {
    const open = { ...DEFAULT_DEIDENTIFICATION_POLICY, uploaderMayChange: ['retainUids'] };
    const put = await harness.call('PUT', '/api/hospital-admin/deidentification-policy', {
      as: ACTORS.HOSPITAL_ADMIN,
      body: open,
    });
    expect(put.status).toBe(200);
    const lakeview = await harness.call('GET', '/api/hospital-admin/deidentification-policy', {
      as: 'admin@lakeview.demo.local',
    });
    expect(lakeview.body.uploaderMayChange).toEqual([]);
    const body = { ...newDataset, anonymization: { retainUids: true } };
    expect((await harness.call('POST', '/api/datasets', { as: ACTORS.TEAM_MEMBER, body })).status).toBe(201);
    const refused = await harness.call('POST', '/api/datasets', { as: ACTORS.OTHER_HOSPITAL, body });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'anonymization.retainUids' }],
    });
  });
});
