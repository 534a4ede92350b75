import type { Caller } from '#shared/domain/access/caller.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/auth/roles.ts';
import type {
  AssetRecord,
  AuditEvent,
  AuditLog,
  DatasetRecord,
  DatasetRepository,
  PageTokens,
  SeriesRecord,
} from '#shared/domain/datasets/ports.ts';
import { ConflictError, EmailTakenError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { DepartmentRecord, Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { InvitationDeps } from '#shared/domain/invitations/deps.ts';
import type { InvitationRecord, InvitationRepository, MailMessage } from '#shared/domain/invitations/ports.ts';
import type { UploadFileRecord, UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';
import type { DeidentificationPolicies, StoredDeidentificationPolicy } from '#shared/domain/hospitals/ports.ts';
import { createMemoryObjectStore } from '#tests/integration/datasets-harness.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';

/** In-memory ports with the same contracts as the DynamoDB adapters (conditional status writes included). */
export function fakeDatasets(audit?: AuditLog): DatasetRepository & {
  rows: Map<string, DatasetRecord>;
  series: Map<string, SeriesRecord>;
  assets: Map<string, AssetRecord>;
} {
  const rows = new Map<string, DatasetRecord>();
  const series = new Map<string, SeriesRecord>();
  const assets = new Map<string, AssetRecord>();
  const k = (h: string, d: string) => `${h}/${d}`;
  const update = (h: string, d: string, fields: Partial<DatasetRecord>, expected: readonly string[]) => {
    const current = rows.get(k(h, d));
    if (!current) throw new NotFoundError('DATASET_NOT_FOUND');
    if (!expected.includes(current.status)) throw new ConflictError();
    const next = { ...current, ...fields } as DatasetRecord;
    for (const [key, value] of Object.entries(fields))
      if (value === undefined) delete (next as Record<string, unknown>)[key];
    rows.set(k(h, d), next);
    return next;
  };
  return {
    rows,
    series,
    assets,
    async get(h, d) {
      return rows.get(k(h, d));
    },
    async create(d) {
      if (rows.has(k(d.hospitalId, d.id))) throw new ConflictError();
      rows.set(k(d.hospitalId, d.id), d);
    },
    async update(h, d, f, e) {
      return update(h, d, f, e);
    },
    async transition(h, d, from, to, f = {}, entry) {
      const next = update(h, d, { ...f, status: to }, from);
      if (entry) await audit?.record(entry);
      return next;
    },
    async list(q) {
      const all = [...rows.values()]
        .filter(
          (d) =>
            d.hospitalId === q.hospitalId &&
            (q.teamId === undefined || d.teamId === q.teamId) &&
            (!q.status || d.status === q.status) &&
            (!q.search || d.searchText.includes(q.search) || d.patientAlias === q.searchAlias),
        )
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const start = q.startKey ? all.findIndex((d) => d.id === q.startKey!.id) + 1 : 0;
      const items = all.slice(start, start + q.limit);
      return { items, ...(start + q.limit < all.length ? { lastKey: { id: items.at(-1)!.id } } : {}) };
    },
    async listSeries(h, d) {
      return [...series.values()].filter((s) => s.hospitalId === h && s.datasetId === d);
    },
    async putSeries(s) {
      series.set(`${s.hospitalId}/${s.datasetId}/${s.id}`, s);
    },
    async updateSeries(h, d, id, f) {
      const current = series.get(`${h}/${d}/${id}`);
      if (!current) throw new NotFoundError('SERIES_NOT_FOUND');
      const next = { ...current, ...f };
      series.set(`${h}/${d}/${id}`, next);
      return next;
    },
    async listAssets(h, d) {
      return [...assets.values()].filter((a) => a.hospitalId === h && a.datasetId === d);
    },
    async putAsset(a) {
      assets.set(`${a.hospitalId}/${a.datasetId}/${a.id}`, a);
    },
    async deleteAll(h, d) {
      let n = rows.delete(k(h, d)) ? 1 : 0;
      for (const map of [series, assets] as Map<string, unknown>[])
        for (const key of [...map.keys()])
          if (key.startsWith(`${h}/${d}/`)) {
            map.delete(key);
            n++;
          }
      return n;
    },
  };
}

export function fakeAudit(): AuditLog & { events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  return {
    events,
    async record(e) {
      events.push({
        ...e,
        id: String(events.length + 1),
        at: e.at ?? `2026-01-01T00:00:${String(events.length).padStart(2, '0')}.000Z`,
      });
    },
    async listForDataset(h, d) {
      return events.filter((e) => e.hospitalId === h && e.datasetId === d);
    },
  };
}

/** Tokens are the scope plus the key in clear; opening checks the scope, like the sealed adapter does. */
export const fakePageTokens: PageTokens = {
  seal: async (scope, key) => JSON.stringify({ scope, key }),
  open: async (scope, token) => {
    const parsed = JSON.parse(token) as { scope: string; key: Record<string, string> };
    if (parsed.scope !== scope) throw new ValidationError();
    return parsed.key;
  },
};

export function fakeUploads(): UploadRepository & {
  sessions: Map<string, UploadSessionRecord>;
  files: Map<string, UploadFileRecord>;
} {
  const sessions = new Map<string, UploadSessionRecord>();
  const files = new Map<string, UploadFileRecord>();
  return {
    sessions,
    files,
    async createSession(s, fs) {
      sessions.set(s.sessionId, s);
      for (const f of fs) files.set(`${f.sessionId}/${f.fileIndex}`, f);
    },
    async getSession(h, id) {
      const s = sessions.get(id);
      return s?.hospitalId === h ? s : undefined;
    },
    async listFiles(h, id) {
      return [...files.values()]
        .filter((f) => f.sessionId === id && f.hospitalId === h)
        .sort((a, b) => a.fileIndex - b.fileIndex);
    },
    async getFile(h, id, i) {
      const f = files.get(`${id}/${i}`);
      return f?.hospitalId === h ? f : undefined;
    },
    async markFileComplete(_h, id, i) {
      const f = files.get(`${id}/${i}`)!;
      files.set(`${id}/${i}`, { ...f, status: 'COMPLETE' });
    },
    async claimMultipartUpload(_h, id, i, uploadId) {
      const f = files.get(`${id}/${i}`)!;
      if (f.multipartUploadId) return f.multipartUploadId;
      files.set(`${id}/${i}`, { ...f, multipartUploadId: uploadId });
      return uploadId;
    },
    async setSessionStatus(_h, id, status) {
      sessions.set(id, { ...sessions.get(id)!, status });
    },
    async deleteFiles(_h, id) {
      for (const key of [...files.keys()]) if (key.startsWith(`${id}/`)) files.delete(key);
    },
  };
}

export function caller(role: Role, overrides: Partial<Caller> = {}): Caller {
  return {
    userId: `user-${role.toLowerCase()}`,
    email: `${role.toLowerCase()}@x.test`,
    hospitalId: 'h1',
    teamId: role === 'HOSPITAL_ADMIN' || role === 'SUPER_ADMIN' ? null : 't1',
    role,
    permissions: [...DEFAULT_PERMISSIONS[role]],
    firstName: 'Pat',
    lastName: role,
    ...overrides,
  };
}

export function fakePolicies(): DeidentificationPolicies & { items: Map<string, StoredDeidentificationPolicy> } {
  const items = new Map<string, StoredDeidentificationPolicy>();
  return {
    items,
    get: async (hospitalId) => items.get(hospitalId),
    put: async (hospitalId, policy) => {
      items.set(hospitalId, policy);
    },
  };
}

export function ports() {
  let n = 0;
  const audit = fakeAudit();
  return {
    datasets: fakeDatasets(audit),
    audit,
    uploads: fakeUploads(),
    policies: fakePolicies(),
    objects: createMemoryObjectStore(),
    pageTokens: fakePageTokens,
    pseudonymizer: { patientAlias: async (h: string, mrn: string) => `PT-${h}-${mrn.length}` },
    pipeline: {
      started: [] as unknown[],
      async start(input: unknown) {
        this.started.push(input);
      },
    },
    clock: { now: () => '2026-02-01T10:00:00.000Z' },
    ids: { newId: () => `id-${++n}` },
  };
}

export const NEW_DATASET = {
  mrn: 'MRN-123456',
  studyType: 'DIAGNOSTIC' as const,
  urgency: 'ROUTINE' as const,
  studyDescription: 'Brain MRI',
  clinicalIndication: 'Headache',
  orderingPhysician: 'Dr. A',
  department: 'Radiology',
  patientConsent: true as const,
  hipaaDisclosure: true as const,
  anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
};

/**
 * The invitation core's ports in memory (same contracts as the DynamoDB adapter: one pending invitation per e-mail
 * per hospital, conditional status moves, pending counters), a mailbox, a user pool and a settable clock.
 */
export function fakeInvitationWorld() {
  const invitations = new Map<string, InvitationRecord>();
  const locks = new Map<string, string>();
  const counters = new Map<string, number>();
  const users = new Map<string, UserRecord>();
  const mailbox: MailMessage[] = [];
  const identities = new Map<string, { sub: string; password: string; group: string; hospitalId: string }>();
  const audit = fakeAudit();
  const state = { now: '2026-03-01T09:00:00.000Z', mailFails: false, n: 0, t: 0 };
  const hospitals: HospitalRecord[] = [
    { id: 'h1', slug: 'h1', name: 'Northside General', createdAt: state.now, updatedAt: state.now },
    { id: 'h2', slug: 'h2', name: 'Lakeview Medical Center', createdAt: state.now, updatedAt: state.now },
  ];
  const departments: DepartmentRecord[] = [
    { id: 'd1', hospitalId: 'h1', name: 'Radiology', description: '', createdAt: state.now },
    { id: 'd2', hospitalId: 'h1', name: 'Neurology', description: '', createdAt: state.now },
  ];
  const teams: (TeamRecord & { isActive?: boolean })[] = [
    { id: 't1', hospitalId: 'h1', name: 'Neuroradiology', departmentId: 'd1', description: '', createdAt: state.now },
    { id: 't2', hospitalId: 'h1', name: 'Stroke Imaging', departmentId: 'd2', description: '', createdAt: state.now },
    { id: 't9', hospitalId: 'h2', name: 'Other', departmentId: 'd9', description: '', createdAt: state.now },
  ];
  const k = (h: string, id: string) => `${h}/${id}`;
  const bump = (inv: InvitationRecord, d: number) => {
    counters.set(`H#${inv.hospitalId}`, (counters.get(`H#${inv.hospitalId}`) ?? 0) + d);
    if (inv.teamId) counters.set(`T#${inv.teamId}`, (counters.get(`T#${inv.teamId}`) ?? 0) + d);
  };
  const repo: InvitationRepository = {
    async create(inv) {
      const lock = k(inv.hospitalId, inv.emailKey);
      if (locks.has(lock)) throw new EmailTakenError('EMAIL_ALREADY_INVITED');
      locks.set(lock, inv.id);
      invitations.set(k(inv.hospitalId, inv.id), { ...inv });
      bump(inv, 1);
    },
    async get(h, id) {
      return invitations.get(k(h, id));
    },
    async findByTokenHash(hash) {
      return [...invitations.values()].find((i) => i.tokenHash === hash);
    },
    async pendingIdForEmail(h, emailKey) {
      return locks.get(k(h, emailKey));
    },
    async listForHospital(h) {
      return [...invitations.values()].filter((i) => i.hospitalId === h);
    },
    async updatePending(h, id, fields) {
      const current = invitations.get(k(h, id));
      if (!current || current.status !== 'PENDING') throw new ConflictError();
      const next = { ...current, ...fields };
      invitations.set(k(h, id), next);
      return next;
    },
    async setDelivery(h, id, delivery) {
      const current = invitations.get(k(h, id));
      if (!current) return false;
      invitations.set(k(h, id), { ...current, delivery });
      return true;
    },
    async leavePending(inv, status, fields) {
      const current = invitations.get(k(inv.hospitalId, inv.id));
      if (!current || current.status !== 'PENDING') throw new ConflictError();
      const next = { ...current, ...fields, status };
      invitations.set(k(inv.hospitalId, inv.id), next);
      if (locks.get(k(inv.hospitalId, inv.emailKey)) === inv.id) locks.delete(k(inv.hospitalId, inv.emailKey));
      bump(inv, -1);
      return next;
    },
  };
  const directory: Directory = {
    getUser: async (h, id) => {
      const u = users.get(id);
      return u?.hospitalId === h ? u : undefined;
    },
    getHospital: async (h) => hospitals.find((x) => x.id === h),
    getTeam: async (h, id) => teams.find((t) => t.hospitalId === h && t.id === id),
    putHospital: async () => {},
    putDepartment: async () => {},
    putTeam: async () => {},
    putUser: async (u) => {
      users.set(u.id, u);
    },
    recordLogin: async () => {},
  };
  const deps: InvitationDeps = {
    invitations: repo,
    invitationDirectory: {
      findUserByEmail: async (email) => [...users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase()),
      listDepartments: async (h) => departments.filter((d) => d.hospitalId === h),
      listTeams: async (h) => teams.filter((t) => t.hospitalId === h),
      deleteUser: async (_h, id) => {
        users.delete(id);
      },
    },
    directory,
    mailer: {
      async send(message) {
        if (state.mailFails) throw new Error('mail down');
        mailbox.push(message);
      },
    },
    identity: {
      async createMember(input) {
        const existing = identities.get(input.email.toLowerCase());
        const sub = existing?.sub ?? `sub-${identities.size + 1}`;
        identities.set(input.email.toLowerCase(), {
          sub,
          password: input.password,
          group: input.role,
          hospitalId: input.hospitalId,
        });
        return sub;
      },
    },
    tokens: {
      newToken: () => `tok${String(++state.t).padStart(40, '0')}`,
      hash: (token) => `hash:${token}`,
    },
    audit,
    clock: { now: () => state.now },
    ids: { newId: () => `inv-${++state.n}` },
    siteOrigin: 'https://site.test',
  };
  /** The token in the newest e-mail to this address. */
  const tokenFor = (email: string) => {
    const message = mailbox.filter((m) => m.to === email).at(-1);
    return message ? decodeURIComponent(/token=([^\s"&<]+)/.exec(message.text)![1]!) : undefined;
  };
  return { deps, state, invitations, locks, counters, users, mailbox, identities, audit, teams, tokenFor };
}
