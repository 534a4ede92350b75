import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { BYTES_PER_GB } from '#shared/domain/settings/enforce.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { DEFAULT_TEAM_SETTINGS, TeamSettingsSchema, type TeamSettings } from '#shared/schemas/api/organisation.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  PolicySchema,
  TeamPolicyOverridesSchema,
  type Policy,
  type TeamPolicyOverrides,
} from '#shared/schemas/api/policies.ts';
import type { AnonymizationOption } from '#shared/vocabulary/deidentification.ts';
import { DEFAULT_PERMISSIONS, PERMISSIONS, type Permission, type PermissionGrant } from '#shared/vocabulary/roles.ts';
import { resetEnvCache } from '#functions/lib/env.ts';
import { twoFactorPolicyOf } from '#functions/lib/two-factor.ts';
import { buildDicom, rampPixels, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { datasetRecord, newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { claimsFor, subOf } from './datasets-harness.ts';
import { runRetention } from './retention-run.ts';

/**
 * Policy by path (docs/roles-and-permissions.md#policy-by-path): every switch of the settings pages (the hospital
 * policy, the team's overrides, the team's settings) and every permission of the role table, tried on every path it
 * governs (docs/domain.md#enforcement, docs/domain.md#share-policy, docs/roles-and-permissions.md#permission-checks),
 * on and off, as each role that reaches the path. One table, one row per promise x path x role x value, each row
 * setting the state from a permissive baseline and checking the outcome. A completeness check walks the policy and
 * team schemas and the permission list, so a new switch fails here until a row, or a reason in NOT_A_PATH_SWITCH,
 * covers it.
 */
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const OTHER_TEAM = 'team-northside-stroke';
const DOMAIN = 'northside.demo.local';
const USERS = {
  HOSPITAL_ADMIN: 'admin@northside.demo.local',
  TEAM_LEAD: 'lead@northside.demo.local',
  TEAM_MEMBER: 'member@northside.demo.local',
  GUEST: 'guest@northside.demo.local',
} as const;
type UserRole = keyof typeof USERS;
/** Who calls: a user of a role, a DICOMweb client of the team, a patient holding a link, or the scheduled jobs. */
type Actor = UserRole | 'DICOMWEB_CLIENT' | 'PATIENT' | 'SCHEDULER';
const ROOT = '1.2.826.0.1.3680043.9.7778';
const OUT_OF_RESOURCES = 'A700';
const CANNOT_UNDERSTAND = 'C000';
const MB = 1024 * 1024;

/** The state a row sets, on top of the permissive baseline below (every row starts from it). */
type State = {
  hospital?: Partial<Policy>;
  team?: TeamPolicyOverrides;
  teamSettings?: Partial<TeamSettings>;
  storageUsedBytes?: number;
  /** Options of the de-identification policy an uploader may change. */
  uploaderMayChange?: AnonymizationOption[];
  /** The caller's permissions: their role's defaults with this one granted or taken away. */
  permission?: { name: Permission; granted: boolean };
  /** Runs the request in the prod stage (docs/domain.md#two-factor-policy). */
  prod?: boolean;
};

/** Everything allowed, so that only the row's own switch decides: external sharing on, no approval. */
const BASE_POLICY: Policy = {
  ...DEFAULT_HOSPITAL_POLICY,
  shareWithExternal: true,
  requireApproval: false,
  recipientDomains: [DOMAIN],
  patientShare: {
    ...DEFAULT_HOSPITAL_POLICY.patientShare,
    defaultExpiryHours: 720,
    maxOpens: -1,
    watermarkEnabled: false,
    downloadsEnabled: true,
    allowedScopes: ['viewer_only', 'screenshots', 'downloads'],
  },
};
const BASE_TEAM_SETTINGS: TeamSettings = { ...DEFAULT_TEAM_SETTINGS, requireApprovalForDataSharing: false };
/** A share the baseline admits: what a row's input changes. */
const SHARE = {
  recipientEmail: `patient@${DOMAIN}`,
  expiresInHours: 24,
  maxOpens: 1,
  watermark: true,
  allowDownloads: false,
  scopes: ['viewer_only'],
};

/** The paths a promise acts on: route keys, and the DICOM protocols. */
type Path =
  | 'POST /api/datasets/{id}/upload/session'
  | 'POST /api/datasets/{id}/upload/session (admin notification)'
  | 'STOW'
  | 'C-STORE'
  | 'POST /api/datasets'
  | 'GET /api/datasets'
  | 'GET /api/datasets/{id}'
  | 'DELETE /api/datasets/{id}'
  | 'POST /api/datasets/{id}/exports'
  | 'GET /api/shares/received'
  | 'POST /api/datasets/{id}/team-shares'
  | 'POST /api/datasets/{id}/patient-shares'
  | 'POST /api/patient-access/code'
  | 'PUT /api/teams/{teamId}/policy'
  | 'retention job'
  | 'GET /api/me'
  | 'PATCH /api/teams/{teamId}/members/{memberId}/role'
  | 'PATCH /api/teams/{teamId}/members/{memberId}/permissions'
  | 'POST /api/teams/{teamId}/invitations'
  | 'PATCH /api/teams/{teamId}'
  | 'GET /api/reports';

type Input = Record<string, unknown>;
type Row = {
  /** The policy field's path (team overrides `team.`, team settings `teamSettings.`) or the permission's name. */
  promise: string;
  path: Path;
  role: Actor;
  /** The value tried, in words. */
  setting: string;
  state: State;
  input?: Input;
  /** The outcome: the status, then the error code, the share's status, or the DICOM failure reasons. */
  expected: string;
  /** Opening a link: who made it, under the row's state (absent: an admin, under the baseline). */
  sharedBy?: UserRole;
  /** Covered by another test (which needs what this one does not run): the row is skipped, naming it. */
  coveredBy?: string;
};

const h = useHarness();
let clientId = '';
let counter = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

// ---------------------------------------------------------------- state

async function putHospitalPolicy(policy: Policy) {
  await h.deps.settings.putHospitalPolicy(HOSPITAL, {
    value: policy,
    updatedAt: new Date().toISOString(),
    updatedByUserId: 'policy-by-path',
  });
  // The container's remembered two-factor flags are forgotten as a settings save does (docs/domain.md#two-factor-policy).
  twoFactorPolicyOf(h.deps).forget(HOSPITAL);
}

async function setStorageUsed(bytes: number) {
  const used = await h.deps.settings.storageUsedBytes(HOSPITAL);
  await h.deps.organisation.add(HOSPITAL, { kind: 'hospital' }, { storageUsedBytes: bytes - used });
}

async function setPermissions(role: UserRole, permissions: PermissionGrant[]) {
  await h.deps.organisation.updateUser(HOSPITAL, subOf(USERS[role]), {
    permissions,
    updatedAt: new Date().toISOString(),
  });
}

function permissionsWith(role: UserRole, name: Permission, granted: boolean): PermissionGrant[] {
  // An admin holds '*': taking one away leaves every other permission.
  const base = DEFAULT_PERMISSIONS[role].includes('*')
    ? PERMISSIONS.filter((p) => p !== name)
    : DEFAULT_PERMISSIONS[role].filter((p) => p !== name);
  return granted ? [...base, name] : base;
}

async function apply(row: Row) {
  const { state } = row;
  await putHospitalPolicy({ ...BASE_POLICY, ...state.hospital });
  await h.deps.settings.putTeamPolicy(HOSPITAL, TEAM, {
    value: state.team ?? {},
    updatedAt: new Date().toISOString(),
    updatedByUserId: 'policy-by-path',
  });
  await h.deps.organisation.updateTeam(HOSPITAL, TEAM, {
    settings: { ...BASE_TEAM_SETTINGS, ...state.teamSettings },
  });
  await setStorageUsed(state.storageUsedBytes ?? 0);
  await h.deps.policies.put(HOSPITAL, {
    ...DEFAULT_DEIDENTIFICATION_POLICY,
    uploaderMayChange: state.uploaderMayChange ?? [],
    updatedAt: new Date().toISOString(),
    updatedByUserId: 'policy-by-path',
  });
  if (state.permission && row.role in USERS) {
    const role = row.role as UserRole;
    await setPermissions(role, permissionsWith(role, state.permission.name, state.permission.granted));
  }
  if (state.prod) {
    process.env.STAGE = 'prod';
    resetEnvCache();
  }
}

async function restore() {
  for (const role of Object.keys(USERS) as UserRole[]) await setPermissions(role, [...DEFAULT_PERMISSIONS[role]]);
  delete process.env.STAGE;
  resetEnvCache();
}

// ---------------------------------------------------------------- fixtures

/** A complete dataset of the team owned by `owner`, stored as the pipeline leaves it. */
async function dataset(owner: UserRole, status: DatasetRecord['status'] = 'COMPLETE'): Promise<string> {
  const id = fresh('ds-path');
  const now = new Date().toISOString();
  await h.deps.datasets.create(
    datasetRecord({
      id,
      hospitalId: HOSPITAL,
      teamId: TEAM,
      ownerUserId: subOf(USERS[owner]),
      ownerName: 'Policy Path',
      status,
      sizeBytes: status === 'CREATED' ? 0 : 10,
      fileCount: status === 'CREATED' ? 0 : 1,
      seriesCount: status === 'CREATED' ? 0 : 1,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return id;
}

/** A fresh member of the team to act on. */
async function target(): Promise<string> {
  const id = fresh('user');
  await h.deps.directory.putUser({
    id,
    email: `${id}@${DOMAIN}`,
    firstName: 'Fresh',
    lastName: 'Fixture',
    role: 'TEAM_MEMBER',
    status: 'ACTIVE',
    hospitalId: HOSPITAL,
    teamId: TEAM,
    departmentId: 'dept-northside-radiology',
    permissions: [...DEFAULT_PERMISSIONS.TEAM_MEMBER],
    createdAt: new Date().toISOString(),
  });
  return id;
}

/** One MR instance with `pixelBytes` of pixel data, of a study of its own. */
function instance(pixelBytes?: number): Uint8Array {
  const study = `${ROOT}.${++counter}`;
  const extra: BuiltElement[] = [
    { tag: '00080018', vr: 'UI', value: `${study}.1.1` },
    { tag: '0020000D', vr: 'UI', value: study },
    { tag: '0020000E', vr: 'UI', value: `${study}.1` },
    { tag: '00200013', vr: 'IS', value: '1' },
    { tag: '7FE00010', vr: 'OW', value: pixelBytes ? new Uint8Array(pixelBytes) : rampPixels() },
  ];
  return buildDicom({ extra });
}

/** STOW-RS of one instance as the team's DICOMweb client: the status and the failure reasons. */
async function stow(bytes: Uint8Array): Promise<string> {
  const boundary = fresh('path');
  const path = '/dicomweb/studies';
  const matched = matchRoute('POST', path)!;
  const event = {
    httpMethod: 'POST',
    path,
    resource: matched.route.path,
    pathParameters: matched.pathParameters,
    queryStringParameters: null,
    headers: {
      host: 'harness.test',
      'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
    },
    multiValueHeaders: {},
    multiValueQueryStringParameters: null,
    stageVariables: null,
    isBase64Encoded: true,
    body: Buffer.from(buildMultipart([{ contentType: 'application/dicom', bytes }], boundary)).toString('base64'),
    requestContext: {
      authorizer: { claims: { token_use: 'access', client_id: clientId, scope: 'imaging-dicomweb/write' } },
    },
  } as unknown as APIGatewayProxyEvent;
  const { handler } = await import('#functions/dicomweb/handler.ts');
  const reply = (await handler(event, {} as Context)) as { statusCode: number; body: string };
  const answer = JSON.parse(reply.body) as Record<string, { Value?: Record<string, { Value?: number[] }>[] }>;
  const reasons = (answer['00081198']?.Value ?? []).map((item) =>
    Number(item['00081197']?.Value?.[0]).toString(16).toUpperCase(),
  );
  return [reply.statusCode, ...reasons].join(' ');
}

/** The outcome of an API answer: its status and error code, or the share's status. */
function outcome(answer: { status: number; body: any }): string {
  const code = answer.body?.error?.code as string | undefined;
  if (code) return `${answer.status} ${code}`;
  const shareStatus = (answer.body?.share?.status ?? answer.body?.items?.[0]?.status) as string | undefined;
  return shareStatus && answer.status === 201 ? `${answer.status} ${shareStatus}` : String(answer.status);
}

// ---------------------------------------------------------------- the paths

type Act = (row: Row, as: string) => Promise<string>;

const ACTS: Record<Path, Act> = {
  'POST /api/datasets/{id}/upload/session': async (row, as) => {
    const id = await dataset(row.role as UserRole, 'CREATED');
    await apply(row);
    const file = { fileKey: fileKeyOf(fresh('a/1.dcm')), sizeBytes: 1000, ...row.input };
    return outcome(await h.call('POST', `/api/datasets/${id}/upload/session`, { as, body: { files: [file] } }));
  },
  'POST /api/datasets/{id}/upload/session (admin notification)': async (row, as) => {
    const id = await dataset(row.role as UserRole, 'CREATED');
    await apply(row);
    // Each threshold is raised once a month (docs/domain.md#billing-alerts): every row starts with none raised yet.
    const month = new Date().toISOString().slice(0, 7);
    for (const percent of [55, 60, 65, 90, 100])
      await h.table.doc.send(
        new DeleteCommand({
          TableName: h.table.tableName,
          Key: keys.notificationClaim(HOSPITAL, `storage#${month}#${percent}`),
        }),
      );
    const types = async () =>
      ((await h.call('GET', '/api/notifications', { as: USERS.HOSPITAL_ADMIN })).body.items as { type: string }[])
        .map((n) => n.type)
        .filter((t) => t.startsWith('STORAGE_'));
    const before = (await types()).length;
    const opened = await h.call('POST', `/api/datasets/${id}/upload/session`, {
      as,
      body: { files: [{ fileKey: fileKeyOf(fresh('a/1.dcm')), sizeBytes: 1000 }] },
    });
    // Newest first: what the upload added.
    const after = await types();
    const added = after.slice(0, after.length - before);
    return `${opened.status} ${added.length > 0 ? added.join(',') : 'none'}`;
  },
  STOW: async (row) => {
    await apply(row);
    return stow(instance(row.input?.pixelBytes as number | undefined));
  },
  'C-STORE': async () => {
    throw new Error('C-STORE needs dcmtk: its rows name the test that covers them');
  },
  'POST /api/datasets': async (row, as) => {
    await apply(row);
    return outcome(await h.call('POST', '/api/datasets', { as, body: newDatasetBody({ ...row.input }) }));
  },
  'GET /api/datasets': async (row, as) => {
    await apply(row);
    return outcome(await h.call('GET', '/api/datasets', { as }));
  },
  'GET /api/datasets/{id}': async (row, as) => {
    const id = await dataset('TEAM_MEMBER');
    await apply(row);
    return outcome(await h.call('GET', `/api/datasets/${id}`, { as }));
  },
  'DELETE /api/datasets/{id}': async (row, as) => {
    const id = await dataset(row.role as UserRole);
    await apply(row);
    return outcome(await h.call('DELETE', `/api/datasets/${id}`, { as, body: { reason: 'policy by path' } }));
  },
  'POST /api/datasets/{id}/exports': async (row, as) => {
    const id = await dataset('TEAM_MEMBER');
    await apply(row);
    const answer = outcome(await h.call('POST', `/api/datasets/${id}/exports`, { as, body: { format: 'dicom' } }));
    // The export's job runs after the answer; it ends before the next row changes anything.
    await h.settleJobs();
    return answer;
  },
  'GET /api/shares/received': async (row, as) => {
    // A share of another team's dataset to the caller's team, made by an admin under the baseline.
    await apply({ ...row, state: {} });
    const id = fresh('ds-other');
    const now = new Date().toISOString();
    const base = { ...(await h.deps.datasets.get(HOSPITAL, await dataset('TEAM_MEMBER')))! };
    await h.deps.datasets.create({ ...base, id, teamId: OTHER_TEAM, createdAt: now, updatedAt: now });
    const shared = await h.call('POST', `/api/datasets/${id}/team-shares`, {
      as: USERS.HOSPITAL_ADMIN,
      body: { teamId: TEAM, permissions: ['view'] },
    });
    expect(shared.status).toBe(201);
    await apply(row);
    const received = await h.call('GET', '/api/shares/received', { as });
    const seen = (received.body.items as { id?: string; datasetId?: string }[]).some(
      (s) => s.datasetId === id || s.id === id,
    );
    return `${received.status} ${seen ? 'listed' : 'not listed'}`;
  },
  'POST /api/datasets/{id}/team-shares': async (row, as) => {
    const id = await dataset(row.role === 'HOSPITAL_ADMIN' ? 'TEAM_MEMBER' : (row.role as UserRole));
    await apply(row);
    return outcome(
      await h.call('POST', `/api/datasets/${id}/team-shares`, {
        as,
        body: { teamId: OTHER_TEAM, permissions: ['view'], ...row.input },
      }),
    );
  },
  'POST /api/datasets/{id}/patient-shares': async (row, as) => {
    const id = await dataset(row.role === 'HOSPITAL_ADMIN' ? 'TEAM_MEMBER' : (row.role as UserRole));
    await apply(row);
    return outcome(
      await h.call('POST', `/api/datasets/${id}/patient-shares`, { as, body: { ...SHARE, ...row.input } }),
    );
  },
  'POST /api/patient-access/code': async (row) => {
    // The link is made by an admin under the baseline (it opens there), then the row's state is set; or, where the
    // row names who shared it, by them under the row's state (approval is decided when the share is made).
    const by = row.sharedBy ?? 'HOSPITAL_ADMIN';
    const id = await dataset(by === 'HOSPITAL_ADMIN' ? 'TEAM_MEMBER' : by);
    await apply(row.sharedBy ? row : { ...row, state: {} });
    const created = await h.call('POST', `/api/datasets/${id}/patient-shares`, {
      as: USERS[by],
      body: { ...SHARE, ...row.input },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = String(created.body.link).split('/p/')[1]!;
    if (!row.sharedBy) await apply(row);
    return outcome(await h.call('POST', '/api/patient-access/code', { body: { token } }));
  },
  'PUT /api/teams/{teamId}/policy': async (row, as) => {
    await apply(row);
    const overrides = { ...row.state.team, ...row.input };
    return outcome(await h.call('PUT', `/api/teams/${TEAM}/policy`, { as, body: { overrides } }));
  },
  'retention job': async (row) => {
    const id = await dataset('TEAM_MEMBER');
    const record = (await h.deps.datasets.get(HOSPITAL, id))!;
    // Ten days old.
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { keys } = await import('#shared/definitions/table/keys.ts');
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.dataset(HOSPITAL, record.id),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 10 * 86_400_000).toISOString() },
      }),
    );
    await apply(row);
    await runRetention(h);
    const read = await h.call('GET', `/api/datasets/${id}`, { as: USERS.HOSPITAL_ADMIN });
    return read.status === 200 ? 'kept' : 'moved to the recycle bin';
  },
  'GET /api/me': async (row, as) => {
    await apply(row);
    const claims = { ...claimsFor(h.user(as)), ...(row.input as Record<string, string> | undefined) };
    return outcome(await h.call('GET', '/api/me', { claims }));
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/role': async (row, as) => {
    const member = await target();
    await apply(row);
    return outcome(await h.call('PATCH', `/api/teams/${TEAM}/members/${member}/role`, { as, body: { role: 'GUEST' } }));
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/permissions': async (row, as) => {
    const member = await target();
    await apply(row);
    return outcome(
      await h.call('PATCH', `/api/teams/${TEAM}/members/${member}/permissions`, {
        as,
        body: { permissions: ['VIEW_DATASETS'], ...row.input },
      }),
    );
  },
  'POST /api/teams/{teamId}/invitations': async (row, as) => {
    await apply(row);
    return outcome(
      await h.call('POST', `/api/teams/${TEAM}/invitations`, {
        as,
        body: {
          email: `${fresh('new')}@invitee.test`,
          role: 'GUEST',
          permissions: ['VIEW_DATASETS'],
          expiresInDays: 7,
          ...row.input,
        },
      }),
    );
  },
  'PATCH /api/teams/{teamId}': async (row, as) => {
    await apply(row);
    return outcome(
      await h.call('PATCH', `/api/teams/${TEAM}`, {
        as,
        body: { settings: { ...BASE_TEAM_SETTINGS, ...row.input } },
      }),
    );
  },
  'GET /api/reports': async (row, as) => {
    await apply(row);
    return outcome(await h.call('GET', '/api/reports', { as, query: { months: '3' } }));
  },
};

// ---------------------------------------------------------------- the table

const UPLOADERS = ['TEAM_LEAD', 'TEAM_MEMBER'] as const;
const SHARERS = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'] as const;
const GRANTEES = ['TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const;
const UPLOAD = 'POST /api/datasets/{id}/upload/session';
const TEAM_SHARE = 'POST /api/datasets/{id}/team-shares';
const PATIENT_SHARE = 'POST /api/datasets/{id}/patient-shares';
const OPEN_LINK = 'POST /api/patient-access/code';
/** The test that sends C-STORE through the listener with dcmtk's storescu. */
const C_STORE_TEST = 'tests/integration/dicom-intake-rules.test.ts (C-STORE under the upload rules)';
/** 60% of a 1 GB cap, less what the upload declares: it crosses 60%. */
const SIXTY_PERCENT = Math.floor(0.6 * BYTES_PER_GB) - 500;

const rows: Row[] = [];
const add = (...more: Row[]) => rows.push(...more);

// Upload limits: the browser's upload session, STOW-RS, C-STORE (docs/domain.md#enforcement).
for (const [level, key] of [
  ['hospital', ''],
  ['team', 'team.'],
] as const) {
  const at = (fields: Partial<Policy> & TeamPolicyOverrides): State =>
    level === 'hospital' ? { hospital: fields } : { team: fields };
  for (const role of UPLOADERS) {
    add(
      {
        promise: `${key}maxFileSizeMB`,
        path: UPLOAD,
        role,
        setting: '1 (file of 2 MB)',
        state: at({ maxFileSizeMB: 1 }),
        input: { sizeBytes: 2 * MB },
        expected: '413 FILE_TOO_LARGE',
      },
      {
        promise: `${key}maxFileSizeMB`,
        path: UPLOAD,
        role,
        setting: '3 (file of 2 MB)',
        state: at({ maxFileSizeMB: 3 }),
        input: { sizeBytes: 2 * MB },
        expected: '201',
      },
      {
        promise: `${key}allowedFormats`,
        path: UPLOAD,
        role,
        setting: 'nii, nifti (a dicom file)',
        state: at({ allowedFormats: ['nii', 'nifti'] }),
        input: { format: 'dicom' },
        expected: '400 FILE_TYPE_NOT_ALLOWED',
      },
      {
        promise: `${key}allowedFormats`,
        path: UPLOAD,
        role,
        setting: 'dcm, dicom (a dicom file)',
        state: at({ allowedFormats: ['dcm', 'dicom'] }),
        input: { format: 'dicom' },
        expected: '201',
      },
    );
  }
  add(
    {
      promise: `${key}maxFileSizeMB`,
      path: 'STOW',
      role: 'DICOMWEB_CLIENT',
      setting: '1 (instance of 1.2 MB)',
      state: at({ maxFileSizeMB: 1 }),
      input: { pixelBytes: 1_200_000 },
      expected: `409 ${OUT_OF_RESOURCES}`,
    },
    {
      promise: `${key}maxFileSizeMB`,
      path: 'STOW',
      role: 'DICOMWEB_CLIENT',
      setting: '3 (instance of 1.2 MB)',
      state: at({ maxFileSizeMB: 3 }),
      input: { pixelBytes: 1_200_000 },
      expected: '200',
    },
    {
      promise: `${key}allowedFormats`,
      path: 'STOW',
      role: 'DICOMWEB_CLIENT',
      setting: 'nii, nifti (a DICOM instance)',
      state: at({ allowedFormats: ['nii', 'nifti'] }),
      expected: `409 ${CANNOT_UNDERSTAND}`,
    },
    {
      promise: `${key}allowedFormats`,
      path: 'STOW',
      role: 'DICOMWEB_CLIENT',
      setting: 'dcm (a DICOM instance)',
      state: at({ allowedFormats: ['dcm'] }),
      expected: '200',
    },
  );
}
for (const role of UPLOADERS) {
  add(
    {
      promise: 'storageCompute.storageCapGB',
      path: UPLOAD,
      role,
      setting: '1 (1 GB in use)',
      state: {
        hospital: { storageCompute: { ...BASE_POLICY.storageCompute, storageCapGB: 1 } },
        storageUsedBytes: BYTES_PER_GB,
      },
      expected: '413 STORAGE_CAP_EXCEEDED',
    },
    {
      promise: 'storageCompute.storageCapGB',
      path: UPLOAD,
      role,
      setting: '2 (1 GB in use)',
      state: {
        hospital: { storageCompute: { ...BASE_POLICY.storageCompute, storageCapGB: 2 } },
        storageUsedBytes: BYTES_PER_GB,
      },
      expected: '201',
    },
  );
}
add(
  {
    promise: 'storageCompute.storageCapGB',
    path: 'STOW',
    role: 'DICOMWEB_CLIENT',
    setting: '1 (1 GB in use)',
    state: {
      hospital: { storageCompute: { ...BASE_POLICY.storageCompute, storageCapGB: 1 } },
      storageUsedBytes: BYTES_PER_GB,
    },
    expected: `409 ${OUT_OF_RESOURCES}`,
  },
  {
    promise: 'storageCompute.storageCapGB',
    path: 'STOW',
    role: 'DICOMWEB_CLIENT',
    setting: '2 (1 GB in use)',
    state: {
      hospital: { storageCompute: { ...BASE_POLICY.storageCompute, storageCapGB: 2 } },
      storageUsedBytes: BYTES_PER_GB,
    },
    expected: '200',
  },
);
for (const promise of ['maxFileSizeMB', 'allowedFormats', 'storageCompute.storageCapGB']) {
  add({
    promise,
    path: 'C-STORE',
    role: 'DICOMWEB_CLIENT',
    setting: 'on and off',
    state: {},
    expected: 'A700 / C000',
    coveredBy: C_STORE_TEST,
  });
}
// The alert thresholds: the upload that takes use across one notifies the hospital admins.
for (const role of UPLOADERS) {
  const cap = (warning: number, critical: number): State => ({
    hospital: {
      storageCompute: { ...BASE_POLICY.storageCompute, storageCapGB: 1, alertThresholds: { warning, critical } },
    },
    storageUsedBytes: SIXTY_PERCENT,
  });
  add(
    {
      promise: 'storageCompute.alertThresholds.warning',
      path: 'POST /api/datasets/{id}/upload/session (admin notification)',
      role,
      setting: '60 (crossed)',
      state: cap(60, 90),
      expected: '201 STORAGE_WARNING',
    },
    {
      promise: 'storageCompute.alertThresholds.warning',
      path: 'POST /api/datasets/{id}/upload/session (admin notification)',
      role,
      setting: '65 (not reached)',
      state: cap(65, 90),
      expected: '201 none',
    },
    {
      promise: 'storageCompute.alertThresholds.critical',
      path: 'POST /api/datasets/{id}/upload/session (admin notification)',
      role,
      setting: '60 (crossed)',
      state: cap(55, 60),
      expected: '201 STORAGE_CRITICAL',
    },
    {
      promise: 'storageCompute.alertThresholds.critical',
      path: 'POST /api/datasets/{id}/upload/session (admin notification)',
      role,
      setting: '65 (not reached)',
      state: cap(55, 65),
      expected: '201 none',
    },
  );
}

// Sharing (docs/domain.md#share-policy).
for (const [level, key] of [
  ['hospital', ''],
  ['team', 'team.'],
] as const) {
  const at = (fields: Partial<Policy> & TeamPolicyOverrides): State =>
    level === 'hospital' ? { hospital: fields } : { team: fields };
  for (const role of SHARERS) {
    add(
      {
        promise: `${key}shareWithExternal`,
        path: PATIENT_SHARE,
        role,
        setting: 'off (outside address)',
        state: at({ shareWithExternal: false }),
        input: { recipientEmail: 'someone@gmail.example' },
        expected: '403 SHARE_RECIPIENT_NOT_ALLOWED',
      },
      {
        promise: `${key}shareWithExternal`,
        path: PATIENT_SHARE,
        role,
        setting: 'off (own domain)',
        state: at({ shareWithExternal: false }),
        expected: '201 ACTIVE',
      },
      {
        promise: `${key}shareWithExternal`,
        path: PATIENT_SHARE,
        role,
        setting: 'on (outside address)',
        state: at({ shareWithExternal: true }),
        input: { recipientEmail: 'someone@gmail.example' },
        expected: '201 ACTIVE',
      },
      {
        promise: `${key}shareWithExternal`,
        path: TEAM_SHARE,
        role,
        setting: 'off (a colleague is never external)',
        state: at({ shareWithExternal: false }),
        expected: '201 ACTIVE',
      },
    );
    for (const path of [TEAM_SHARE, PATIENT_SHARE] as const) {
      add(
        {
          promise: `${key}requireApproval`,
          path,
          role,
          setting: 'on',
          state: at({ requireApproval: true }),
          expected: role === 'HOSPITAL_ADMIN' ? '201 ACTIVE' : '201 PENDING_APPROVAL',
        },
        {
          promise: `${key}requireApproval`,
          path,
          role,
          setting: 'off',
          state: at({ requireApproval: false }),
          expected: '201 ACTIVE',
        },
      );
    }
  }
  add(
    {
      promise: `${key}shareWithExternal`,
      path: OPEN_LINK,
      role: 'PATIENT',
      setting: 'off after the link (outside address)',
      state: at({ shareWithExternal: false }),
      input: { recipientEmail: 'someone@gmail.example' },
      expected: '404 SHARE_LINK_INVALID',
    },
    {
      promise: `${key}shareWithExternal`,
      path: OPEN_LINK,
      role: 'PATIENT',
      setting: 'off after the link (own domain)',
      state: at({ shareWithExternal: false }),
      expected: '200',
    },
    {
      promise: `${key}shareWithExternal`,
      path: OPEN_LINK,
      role: 'PATIENT',
      setting: 'on (outside address)',
      state: at({ shareWithExternal: true }),
      input: { recipientEmail: 'someone@gmail.example' },
      expected: '200',
    },
  );
}
for (const role of SHARERS) {
  add(
    {
      promise: 'recipientDomains',
      path: PATIENT_SHARE,
      role,
      setting: 'another domain only (external off)',
      state: { hospital: { shareWithExternal: false, recipientDomains: ['other.example'] } },
      expected: '403 SHARE_RECIPIENT_NOT_ALLOWED',
    },
    {
      promise: 'recipientDomains',
      path: PATIENT_SHARE,
      role,
      setting: 'the recipient domain (external off)',
      state: { hospital: { shareWithExternal: false, recipientDomains: ['other.example', DOMAIN] } },
      expected: '201 ACTIVE',
    },
  );
  for (const path of [TEAM_SHARE, PATIENT_SHARE] as const) {
    for (const auto of [true, false]) {
      add({
        promise: 'userAndTeam.autoApproveTeamLeads',
        path,
        role,
        setting: `${auto ? 'on' : 'off'} (approval required)`,
        state: {
          hospital: {
            requireApproval: true,
            userAndTeam: { ...BASE_POLICY.userAndTeam, autoApproveTeamLeads: auto },
          },
        },
        expected: role === 'HOSPITAL_ADMIN' || (role === 'TEAM_LEAD' && auto) ? '201 ACTIVE' : '201 PENDING_APPROVAL',
      });
    }
    for (const on of [true, false]) {
      add({
        promise: 'teamSettings.requireApprovalForDataSharing',
        path,
        role,
        setting: on ? 'on' : 'off',
        state: { teamSettings: { requireApprovalForDataSharing: on } },
        expected: on && role !== 'HOSPITAL_ADMIN' ? '201 PENDING_APPROVAL' : '201 ACTIVE',
      });
    }
  }
}
add(
  {
    promise: 'recipientDomains',
    path: OPEN_LINK,
    role: 'PATIENT',
    setting: 'its domain dropped after the link (external off)',
    state: { hospital: { shareWithExternal: false, recipientDomains: ['other.example'] } },
    expected: '404 SHARE_LINK_INVALID',
  },
  {
    promise: 'recipientDomains',
    path: OPEN_LINK,
    role: 'PATIENT',
    setting: 'its domain kept (external off)',
    state: { hospital: { shareWithExternal: false, recipientDomains: [DOMAIN] } },
    expected: '200',
  },
);
// A share waiting for approval does not open: its link answers like an unknown one.
for (const by of ['TEAM_LEAD', 'TEAM_MEMBER'] as const) {
  for (const [key, state] of [
    ['requireApproval', (on: boolean): State => ({ hospital: { requireApproval: on } })],
    ['team.requireApproval', (on: boolean): State => ({ team: { requireApproval: on } })],
    [
      'teamSettings.requireApprovalForDataSharing',
      (on: boolean): State => ({ teamSettings: { requireApprovalForDataSharing: on } }),
    ],
  ] as const) {
    for (const on of [true, false]) {
      add({
        promise: key,
        path: OPEN_LINK,
        role: 'PATIENT',
        setting: `${on ? 'on' : 'off'} (shared by ${by})`,
        state: state(on),
        sharedBy: by,
        expected: on ? '404 SHARE_LINK_INVALID' : '200',
      });
    }
  }
}
// The patient-share defaults: a share may be stricter than the policy, never looser (docs/domain.md#enforcement).
const PATIENT_DEFAULTS: { field: string; strict: Partial<Policy['patientShare']>; share: Input; label: string }[] = [
  {
    field: 'defaultExpiryHours',
    strict: { defaultExpiryHours: 24 },
    share: { expiresInHours: 72 },
    label: '24 (share of 72 h)',
  },
  { field: 'maxOpens', strict: { maxOpens: 1 }, share: { maxOpens: 3 }, label: '1 (share of 3 opens)' },
  {
    field: 'watermarkEnabled',
    strict: { watermarkEnabled: true },
    share: { watermark: false },
    label: 'on (share without)',
  },
  {
    field: 'downloadsEnabled',
    strict: { downloadsEnabled: false, allowedScopes: ['viewer_only', 'screenshots'] },
    share: { allowDownloads: true },
    label: 'off (share with downloads)',
  },
  {
    field: 'allowedScopes',
    strict: { allowedScopes: ['viewer_only'] },
    share: { scopes: ['viewer_only', 'screenshots'] },
    label: 'viewer_only (share with screenshots)',
  },
];
for (const { field, strict, share, label } of PATIENT_DEFAULTS) {
  for (const role of SHARERS) {
    add(
      {
        promise: `patientShare.${field}`,
        path: PATIENT_SHARE,
        role,
        setting: label,
        state: { hospital: { patientShare: { ...BASE_POLICY.patientShare, ...strict } } },
        input: share,
        expected: '400 POLICY_LESS_RESTRICTIVE',
      },
      {
        promise: `patientShare.${field}`,
        path: PATIENT_SHARE,
        role,
        setting: 'the baseline (same share)',
        state: {},
        input: share,
        expected: '201 ACTIVE',
      },
      {
        promise: `team.patientShare.${field}`,
        path: PATIENT_SHARE,
        role,
        setting: label,
        state: { team: { patientShare: strict } },
        input: share,
        expected: '400 POLICY_LESS_RESTRICTIVE',
      },
      {
        promise: `team.patientShare.${field}`,
        path: PATIENT_SHARE,
        role,
        setting: 'no override (same share)',
        state: {},
        input: share,
        expected: '201 ACTIVE',
      },
    );
  }
}
// Guest access: the team's guests read no dataset and are shown no share.
for (const on of [true, false]) {
  add(
    {
      promise: 'teamSettings.allowGuestAccess',
      path: 'GET /api/datasets/{id}',
      role: 'GUEST',
      setting: on ? 'on' : 'off',
      state: { teamSettings: { allowGuestAccess: on } },
      expected: on ? '200' : '404 DATASET_NOT_FOUND',
    },
    {
      promise: 'teamSettings.allowGuestAccess',
      path: 'GET /api/datasets/{id}',
      role: 'TEAM_MEMBER',
      setting: on ? 'on' : 'off (members unaffected)',
      state: { teamSettings: { allowGuestAccess: on } },
      expected: '200',
    },
    {
      promise: 'teamSettings.allowGuestAccess',
      path: 'GET /api/shares/received',
      role: 'GUEST',
      setting: on ? 'on' : 'off',
      state: { teamSettings: { allowGuestAccess: on } },
      expected: on ? '200 listed' : '200 not listed',
    },
  );
}

// Retention: only a hospital admin shortens it (docs/domain.md#policies-and-inheritance); the job applies it.
add(
  {
    promise: 'team.dataRetentionDays',
    path: 'PUT /api/teams/{teamId}/policy',
    role: 'TEAM_LEAD',
    setting: 'shortened 365 → 300',
    state: {},
    input: { dataRetentionDays: 300 },
    expected: '403 RETENTION_SHORTENING_DENIED',
  },
  {
    promise: 'team.dataRetentionDays',
    path: 'PUT /api/teams/{teamId}/policy',
    role: 'TEAM_LEAD',
    setting: 'lengthened 300 → 365',
    state: { team: { dataRetentionDays: 300 } },
    input: { dataRetentionDays: 365 },
    expected: '200',
  },
  {
    promise: 'team.dataRetentionDays',
    path: 'PUT /api/teams/{teamId}/policy',
    role: 'HOSPITAL_ADMIN',
    setting: 'shortened 365 → 300',
    state: {},
    input: { dataRetentionDays: 300 },
    expected: '200',
  },
  {
    promise: 'dataRetentionDays',
    path: 'retention job',
    role: 'SCHEDULER',
    setting: '5 (dataset of 10 days)',
    state: { hospital: { dataRetentionDays: 5 } },
    expected: 'moved to the recycle bin',
  },
  {
    promise: 'dataRetentionDays',
    path: 'retention job',
    role: 'SCHEDULER',
    setting: '365 (dataset of 10 days)',
    state: {},
    expected: 'kept',
  },
  {
    promise: 'team.dataRetentionDays',
    path: 'retention job',
    role: 'SCHEDULER',
    setting: '5 (dataset of 10 days)',
    state: { team: { dataRetentionDays: 5 } },
    expected: 'moved to the recycle bin',
  },
);

// The de-identification policy: an uploader changes only the options it leaves open (docs/domain.md#de-identification).
for (const role of UPLOADERS) {
  add(
    {
      promise: 'deidentification.uploaderMayChange',
      path: 'POST /api/datasets',
      role,
      setting: 'retainUids locked',
      state: { uploaderMayChange: [] },
      input: { anonymization: { retainUids: true } },
      expected: '400 VALIDATION_FAILED',
    },
    {
      promise: 'deidentification.uploaderMayChange',
      path: 'POST /api/datasets',
      role,
      setting: 'retainUids open',
      state: { uploaderMayChange: ['retainUids'] },
      input: { anonymization: { retainUids: true } },
      expected: '201',
    },
  );
}

// Two-factor in prod: admins and leads always need a second factor; the policy adds everyone of the hospital.
for (const role of ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const) {
  for (const required of [true, false]) {
    add({
      promise: 'security.twoFactorRequired',
      path: 'GET /api/me',
      role,
      setting: `${required ? 'on' : 'off'} (prod, no second factor)`,
      state: { hospital: { security: { ...BASE_POLICY.security, twoFactorRequired: required } }, prod: true },
      expected: required || role === 'HOSPITAL_ADMIN' || role === 'TEAM_LEAD' ? '403 MFA_REQUIRED' : '200',
    });
  }
  add({
    promise: 'security.twoFactorRequired',
    path: 'GET /api/me',
    role,
    setting: 'on (prod, TOTP)',
    state: { hospital: { security: { ...BASE_POLICY.security, twoFactorRequired: true } }, prod: true },
    input: { mfa: 'totp' },
    expected: '200',
  });
}

// Permissions (docs/roles-and-permissions.md#permission-checks): granted, let through; not granted, 403.
/**
 * docs/roles-and-permissions.md#permission-checks checks every role the same way (an admin passes "unless a
 * permission was taken away"), but the share cores skip SHARE_DATA for a hospital-wide caller. No route takes a
 * permission from a hospital admin today, so this is reachable only through the stored record.
 */
const GATES: { permission: Permission; path: Path; roles: readonly UserRole[]; ok: string }[] = [
  {
    permission: 'VIEW_DATASETS',
    path: 'GET /api/datasets',
    roles: ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'],
    ok: '200',
  },
  { permission: 'VIEW_DATASETS', path: 'GET /api/datasets/{id}', roles: ['HOSPITAL_ADMIN', ...GRANTEES], ok: '200' },
  { permission: 'UPLOAD_DICOM', path: 'POST /api/datasets', roles: UPLOADERS, ok: '201' },
  { permission: 'UPLOAD_DICOM', path: UPLOAD, roles: UPLOADERS, ok: '201' },
  { permission: 'SHARE_DATA', path: TEAM_SHARE, roles: SHARERS, ok: '201 ACTIVE' },
  { permission: 'SHARE_DATA', path: PATIENT_SHARE, roles: SHARERS, ok: '201 ACTIVE' },
  {
    permission: 'DELETE_DATA',
    path: 'DELETE /api/datasets/{id}',
    roles: ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'],
    ok: '204',
  },
  {
    permission: 'MANAGE_MEMBERS',
    path: 'PATCH /api/teams/{teamId}/members/{memberId}/role',
    roles: GRANTEES,
    ok: '200',
  },
  {
    permission: 'MANAGE_MEMBERS',
    path: 'PATCH /api/teams/{teamId}/members/{memberId}/permissions',
    roles: GRANTEES,
    ok: '200',
  },
  { permission: 'SEND_INVITATIONS', path: 'POST /api/teams/{teamId}/invitations', roles: GRANTEES, ok: '201' },
  { permission: 'VIEW_ANALYTICS', path: 'GET /api/reports', roles: GRANTEES, ok: '200' },
  {
    permission: 'EXPORT_DATA',
    path: 'POST /api/datasets/{id}/exports',
    roles: ['HOSPITAL_ADMIN', ...GRANTEES],
    ok: '202',
  },
];
for (const gate of GATES) {
  for (const role of gate.roles) {
    for (const granted of [true, false]) {
      add({
        promise: gate.permission,
        path: gate.path,
        role,
        setting: granted ? 'granted' : 'not granted',
        // A member's team invitations also need the team's "Members may invite" on (its own rows below).
        state: {
          permission: { name: gate.permission, granted },
          ...(gate.permission === 'SEND_INVITATIONS' ? { teamSettings: { allowMemberInvitations: true } } : {}),
        },
        expected: granted ? gate.ok : '403 ACCESS_DENIED',
      });
    }
  }
}
// The team's "Members may invite" gates every team invitation route for a member who holds SEND_INVITATIONS
// (docs/domain.md#teams); its default permissions are what a member joining the team gets.
add(
  ...[false, true].map((on): Row => ({
    promise: 'teamSettings.allowMemberInvitations',
    path: 'POST /api/teams/{teamId}/invitations',
    role: 'TEAM_MEMBER',
    setting: on ? 'on (member granted SEND_INVITATIONS)' : 'off (member granted SEND_INVITATIONS)',
    state: { teamSettings: { allowMemberInvitations: on }, permission: { name: 'SEND_INVITATIONS', granted: true } },
    expected: on ? '201' : '403 ACCESS_DENIED',
  })),
  {
    promise: 'teamSettings.defaultPermissions',
    path: 'POST /api/teams/{teamId}/invitations',
    role: 'TEAM_LEAD',
    setting: 'VIEW_DATASETS only',
    state: { teamSettings: { defaultPermissions: ['VIEW_DATASETS'] } },
    expected: "the invitee's permissions default to the team's",
    coveredBy: 'tests/integration/team-member-defaults.test.ts (what a member gets at acceptance and on a move)',
  },
);

/**
 * Switches and permissions that govern no path this table can call, each with its reason; a field in neither list
 * fails the completeness check.
 */
const NOT_A_PATH_SWITCH: Record<string, string> = {
  'teamSettings.dataRetentionDays':
    "not shown: a team's retention is its policy's dataRetentionDays (docs/pipeline.md#data-retention), set on the settings page; the stored field is read by nothing",
  allowPublicSharing:
    'acts nowhere: every share names its recipient, no public share exists (docs/domain.md#share-policy)',
  'team.allowPublicSharing': 'acts nowhere, as the hospital switch (docs/domain.md#share-policy)',
  'teamSettings.allowPublicSharing': 'acts nowhere, as the hospital switch (docs/domain.md#share-policy)',
  'patientShare.requireOTP':
    'a one-time code is always required of every patient share (docs/domain.md#patient-shares): no share is looser',
  'team.patientShare.requireOTP': 'as the hospital field: a one-time code is always required',
  'storageCompute.computeThrottles.queueConcurrency':
    "the pipeline's run slots, no API route (docs/pipeline.md#queue-concurrency)",
  'compliance.dlpRules.blockPHIInMessages': 'always on, cannot be turned off (docs/domain.md#policies-and-inheritance)',
  'userAndTeam.defaultMemberRole':
    'the role of a first federated sign-in, set by the post-confirmation trigger, no API route (docs/roles-and-permissions.md#single-sign-on)',
  'security.ssoEnabled':
    'no longer shown: single sign-on is the SSO tab (docs/sso.md), enforced by tests/integration/sso.test.ts and, for "SSO only", tests/unit/functions/sign-in-events.test.ts',
  'security.ssoDomain':
    'no longer shown: the e-mail domains are on the SSO tab (docs/sso.md), one hospital per domain (tests/integration/sso.test.ts)',
};

// ---------------------------------------------------------------- the completeness check

/** The leaves of a zod object schema (every field that is not an object), as dotted paths. */
function leaves(schema: z.ZodType, prefix = ''): string[] {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } })
    .def;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
    return leaves(def.innerType!, prefix);
  if (def.type === 'object')
    return Object.entries(def.shape!).flatMap(([key, field]) => leaves(field, `${prefix}${key}.`));
  return [prefix.slice(0, -1)];
}

const SWITCHES = [
  ...leaves(PolicySchema),
  ...leaves(TeamPolicyOverridesSchema).map((f) => `team.${f}`),
  ...leaves(TeamSettingsSchema).map((f) => `teamSettings.${f}`),
  'deidentification.uploaderMayChange',
];

describe('the table covers every switch and permission', () => {
  it('lists every field of the hospital policy, the team overrides and the team settings, and every permission', () => {
    // Not vacuous: the schemas are walked, and the fields named in the documentation are among them.
    expect(SWITCHES).toEqual(
      expect.arrayContaining([
        'maxFileSizeMB',
        'storageCompute.storageCapGB',
        'userAndTeam.autoApproveTeamLeads',
        'security.twoFactorRequired',
        'team.patientShare.maxOpens',
        'teamSettings.allowGuestAccess',
      ]),
    );
    expect(SWITCHES.length).toBeGreaterThan(30);
    const promised = new Set(rows.map((r) => r.promise));
    const missing = [...SWITCHES, ...PERMISSIONS].filter((p) => !promised.has(p) && !(p in NOT_A_PATH_SWITCH));
    expect(missing).toEqual([]);
    // Each switch that runs is tried with two outcomes at least (on and off; granted and not); one whose every row
    // is skipped names the test that covers it.
    for (const promise of promised) {
      const running = rows.filter((r) => r.promise === promise && !r.coveredBy);
      if (running.length === 0) continue;
      expect(new Set(running.map((r) => r.expected)).size, promise).toBeGreaterThanOrEqual(2);
    }
  });

  it('names no reason for a switch the table covers, and no field that does not exist', () => {
    const promised = new Set(rows.map((r) => r.promise));
    for (const [field, reason] of Object.entries(NOT_A_PATH_SWITCH)) {
      expect(promised.has(field), field).toBe(false);
      expect([...SWITCHES, ...PERMISSIONS] as string[], field).toContain(field);
      expect(reason.length, field).toBeGreaterThan(10);
    }
    for (const row of rows) expect([...SWITCHES, ...PERMISSIONS] as string[], row.promise).toContain(row.promise);
  });
});

// ---------------------------------------------------------------- the rows

beforeAll(async () => {
  const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
    as: USERS.HOSPITAL_ADMIN,
    body: { name: 'Policy Path PACS', teamId: TEAM, quietSeconds: 300 },
  });
  expect(created.status).toBe(201);
  clientId = created.body.integration.clientId as string;
});
afterEach(restore);
afterAll(async () => {
  await restore();
  await putHospitalPolicy(DEFAULT_HOSPITAL_POLICY);
});

const title = (r: Row) => `${r.promise} = ${r.setting} on ${r.path} as ${r.role}: ${r.expected}`;

describe('policy by path', () => {
  for (const row of rows) {
    if (row.coveredBy) it.skip(`${title(row)} (covered by ${row.coveredBy})`, () => undefined);
    else
      it(title(row), async () => {
        const as = row.role in USERS ? USERS[row.role as UserRole] : '';
        expect(await ACTS[row.path](row, as)).toBe(row.expected);
      });
  }
});
