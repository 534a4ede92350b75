import type { UserRecord } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import { DEFAULT_SHARE_LIMITS } from '#shared/domain/shares/ports.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { DEFAULT_HOSPITAL_POLICY, type Policy } from '#shared/schemas/api/policies.ts';
import { DEFAULT_TEAM_SETTINGS } from '#shared/schemas/api/organisation.ts';
import { caller, fakeAudit } from '#tests/unit/domain/fakes.ts';
import {
  createMemoryDatasetRepository,
  createMemoryNotificationInbox,
  createMemoryObjectStore,
  createMemorySettingsStore,
  createMemoryShareStore,
} from '#functions/adapters/memory/index.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import type { CounterName, CounterTarget } from '#shared/domain/organisation/ports.ts';
import { createHash } from 'node:crypto';
import { createShareCodeHasher } from '#functions/adapters/crypto.ts';
import { gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * A world for the share core: one dataset of team t1 owned by the member, users of t1 and t2, a settable clock. The
 * hospital shares outside its domains without approval unless `sharing` says otherwise (the sharing switches' own
 * tests set them, docs/domain.md#share-policy); the admins are of x.test.
 */
export function shareWorld(
  sharing: {
    policy?: Partial<Pick<Policy, 'shareWithExternal' | 'requireApproval' | 'recipientDomains'>> & {
      autoApproveTeamLeads?: boolean;
    };
    teamApproval?: boolean;
  } = {},
) {
  const state = {
    now: '2026-02-01T10:00:00.000Z',
    n: 0,
    t: 0,
    hospitalStatus: 'ACTIVE' as 'ACTIVE' | 'DEACTIVATED',
  };
  const audit = fakeAudit();
  const datasets = createMemoryDatasetRepository(audit);
  const member = caller('TEAM_MEMBER');
  const dataset: DatasetRecord = {
    id: 'ds1',
    hospitalId: 'h1',
    teamId: 't1',
    ownerUserId: member.userId,
    ownerName: 'Pat TEAM_MEMBER',
    patientAlias: 'PT-0001',
    studyType: 'FOLLOW_UP',
    urgency: 'ROUTINE',
    studyDescription: 'Brain MRI',
    clinicalIndication: 'Headache',
    orderingPhysician: 'Dr. A',
    department: 'Radiology',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
    status: 'COMPLETE',
    sizeBytes: 1,
    fileCount: 1,
    seriesCount: 1,
    createdAt: '2026-01-15T08:00:00.000Z',
    updatedAt: '2026-01-15T08:00:00.000Z',
    searchText: 'brain mri',
  };
  datasets.rows.set('h1/ds1', dataset);
  datasets.assets.set('h1/ds1/a1', {
    id: 'a1',
    datasetId: 'ds1',
    hospitalId: 'h1',
    type: 'VOLUME',
    label: 'T1w',
    byteSize: 10,
    mimeType: 'application/gzip',
    metadata: {},
    createdAt: dataset.createdAt,
    bucket: 'assets',
    objectKey: 'h1/ds1/assets/t1w.nii.gz',
  });
  datasets.assets.set('h1/ds1/a2', {
    id: 'a2',
    datasetId: 'ds1',
    hospitalId: 'h1',
    type: 'REPORT',
    label: 'Report',
    byteSize: 10,
    mimeType: 'application/pdf',
    metadata: {},
    createdAt: dataset.createdAt,
    bucket: 'assets',
    objectKey: 'h1/ds1/assets/report.pdf',
  });
  const user = (id: string, teamId: string | null, role: UserRecord['role'] = 'TEAM_MEMBER'): UserRecord =>
    ({
      id,
      email: `${id}@x.test`,
      firstName: 'Sam',
      lastName: id,
      role,
      status: 'ACTIVE',
      hospitalId: 'h1',
      teamId,
      permissions: [],
      createdAt: '',
      updatedAt: '',
    }) as UserRecord;
  const users = [
    user('mate', 't1'),
    user('stranger', 't2'),
    user(member.userId, 't1'),
    user('user-team_lead', 't1', 'TEAM_LEAD'),
    user('user-hospital_admin', null, 'HOSPITAL_ADMIN'),
  ];
  const teamSettings = { ...DEFAULT_TEAM_SETTINGS, requireApprovalForDataSharing: sharing.teamApproval ?? false };
  const teams = [
    {
      id: 't1',
      hospitalId: 'h1',
      name: 'Neuroradiology',
      departmentId: 'd1',
      description: '',
      createdAt: '',
      leadUserId: 'user-team_lead',
      settings: teamSettings,
    },
    { id: 't2', hospitalId: 'h1', name: 'Stroke', departmentId: 'd1', description: '', createdAt: '' },
  ];
  const settings = createMemorySettingsStore();
  const { autoApproveTeamLeads, ...policyFields } = sharing.policy ?? {};
  settings.policies.set('h/h1', {
    value: {
      ...DEFAULT_HOSPITAL_POLICY,
      shareWithExternal: true,
      requireApproval: false,
      ...policyFields,
      userAndTeam: {
        ...DEFAULT_HOSPITAL_POLICY.userAndTeam,
        autoApproveTeamLeads: autoApproveTeamLeads ?? DEFAULT_HOSPITAL_POLICY.userAndTeam.autoApproveTeamLeads,
      },
    } satisfies Policy,
    updatedAt: '',
    updatedByUserId: '',
  });
  const counters = new Map<string, number>();
  const mailbox: MailMessage[] = [];
  const sms: { to: string; text: string }[] = [];
  const notifications = createMemoryNotificationInbox();
  const deps = {
    datasets,
    shares: createMemoryShareStore(),
    audit,
    directory: {
      getUser: async (h: string, id: string) => users.find((u) => u.hospitalId === h && u.id === id),
      getTeam: async (h: string, id: string) => teams.find((t) => t.hospitalId === h && t.id === id),
      getHospital: async (h: string) =>
        h === 'h1'
          ? { id: h, slug: h, name: 'Hospital h1', status: state.hospitalStatus, createdAt: '', updatedAt: '' }
          : undefined,
    },
    settings,
    organisation: {
      listUsers: async (q: { hospitalId: string; role?: string; status?: string }) => ({
        items: users.filter(
          (u) =>
            u.hospitalId === q.hospitalId && (!q.role || u.role === q.role) && (!q.status || u.status === q.status),
        ),
      }),
      listTeams: async (q: { hospitalId: string }) => ({ items: teams.filter((t) => t.hospitalId === q.hospitalId) }),
      // The hospital item's counters, as UpdateItem ADD moves them (docs/domain.md#counters).
      add: async (h: string, _target: CounterTarget, deltas: Partial<Record<CounterName, number>>) => {
        for (const [name, by] of Object.entries(deltas))
          counters.set(`${h}/${name}`, (counters.get(`${h}/${name}`) ?? 0) + (by ?? 0));
      },
    },
    objects: createMemoryObjectStore(),
    mailer: { send: async (m: MailMessage) => void mailbox.push(m) },
    sms: { send: async (m: { to: string; text: string }) => void sms.push(m) },
    notifications,
    clock: { now: () => state.now },
    ids: { newId: () => `id-${++state.n}` },
    tokens: {
      newToken: () => `token-${++state.t}-abcdefghijklmnopqrstuvwxyz`,
      hash: (t: string) => createHash('sha256').update(t).digest('hex'),
    },
    // The real codes' hash, cheaper: the unit tests issue many codes.
    shareCodes: createShareCodeHasher({ N: 2 ** 10, r: 8, p: 1 }),
    siteOrigin: 'https://site.test',
    shareLimits: { ...DEFAULT_SHARE_LIMITS, lockSeconds: 60 },
  };
  const advance = (seconds: number) => {
    state.now = new Date(Date.parse(state.now) + seconds * 1000).toISOString();
  };
  const lastCode = () => {
    const text = mailbox.at(-1)?.text ?? sms.at(-1)?.text ?? '';
    return text.match(/\b(\d{6})\b/)![1]!;
  };
  /** A counter of hospital h1 as stored (absent = 0). */
  const counter = (name: CounterName) => counters.get(`h1/${name}`) ?? 0;
  return { state, deps, dataset, member, mailbox, sms, notifications, advance, lastCode, counter };
}

export const CLIENT = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 Chrome/130.0' };

/** A one-page PDF report and a gzipped NIfTI-1 volume behind the world's assets a2 and a1. */
export async function storeAssetFiles(w: ReturnType<typeof shareWorld>) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Imaging report', { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  doc.addPage([595, 842]);
  await w.deps.objects.put('assets', 'h1/ds1/assets/report.pdf', await doc.save());
  const nifti = Buffer.alloc(352 + 8);
  nifti.writeInt32LE(348, 0);
  nifti.write('original description', 148, 'latin1');
  nifti.writeFloatLE(352, 108);
  nifti.write('n+1\0', 344, 'latin1');
  await w.deps.objects.put('assets', 'h1/ds1/assets/t1w.nii.gz', gzipSync(nifti));
}
