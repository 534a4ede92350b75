import type { Caller } from '#shared/domain/access/caller.ts';
import type { Directory, HospitalRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { NotificationInbox, NotificationRecord } from '#shared/domain/notifications/ports.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/auth/roles.ts';
import type {
  AssetRecord,
  AuditLog,
  DatasetRecord,
  DatasetRepository,
  PageTokens,
  SeriesRecord,
} from '#shared/domain/datasets/ports.ts';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { UploadFileRecord, UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';
import type { DeidentificationPolicies, StoredDeidentificationPolicy } from '#shared/domain/hospitals/ports.ts';
import { createChainedMemoryAuditLog } from '#shared/domain/audit/memory-audit-log.ts';
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
            (!q.createdFrom || d.createdAt >= q.createdFrom) &&
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

export function fakeAudit(): ReturnType<typeof createChainedMemoryAuditLog> {
  return createChainedMemoryAuditLog({
    newId: (count) => String(count + 1),
    now: (count) => `2026-01-01T00:00:${String(count).padStart(2, '0')}.000Z`,
  });
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

export function fakeNotifications(): NotificationInbox & { items: NotificationRecord[] } {
  const items: NotificationRecord[] = [];
  return {
    items,
    add: async (n) => void items.push({ ...n }),
    listNewest: async (h, u, limit) =>
      items
        .filter((n) => n.hospitalId === h && n.userId === u)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .slice(0, limit),
    markRead: async (h, u, marked) => {
      for (const n of items)
        if (n.hospitalId === h && n.userId === u && marked.some((m) => m.id === n.id)) n.read = true;
    },
  };
}

export function ports() {
  let n = 0;
  const audit = fakeAudit();
  return {
    notifications: fakeNotifications(),
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

/** Hospitals h1 and h2 with a few users each: enough for scoping and counting. */
export function fakeDirectory(users: UserRecord[] = []): Directory {
  const hospitals: HospitalRecord[] = ['h1', 'h2', 'system'].map((id) => ({
    id,
    slug: id,
    name: `Hospital ${id}`,
    createdAt: '',
    updatedAt: '',
  }));
  return {
    getUser: async (h, id) => users.find((u) => u.hospitalId === h && u.id === id),
    getHospital: async (h) => hospitals.find((x) => x.id === h),
    getTeam: async (h, t) =>
      t === 't1'
        ? { id: 't1', hospitalId: h, name: 'Neuroradiology', departmentId: 'd1', description: '', createdAt: '' }
        : undefined,
    listUsers: async (h) => users.filter((u) => u.hospitalId === h),
    putHospital: async () => {},
    putDepartment: async () => {},
    putTeam: async () => {},
    putUser: async () => {},
    recordLogin: async () => {},
  };
}
