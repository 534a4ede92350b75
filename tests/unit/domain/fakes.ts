import type { IntegrationRecord, IntegrationStore, MachineClients } from '#shared/domain/integrations/ports.ts';
import type { SettingsStore, Stored } from '#shared/domain/settings/ports.ts';
import type {
  HospitalProfile,
  NotificationPreferences,
  Policy,
  TeamPolicyOverrides,
  UserProfile,
} from '#shared/schemas/api/policies.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { NotificationInbox, NotificationRecord } from '#shared/domain/notifications/ports.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import type { AssetRecord, DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, PageTokens } from '#shared/domain/ports.ts';
import { ConflictError, EmailTakenError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { DepartmentRecord, Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { InvitationDeps } from '#shared/domain/invitations/deps.ts';
import type { InvitationRecord, InvitationRepository, MailMessage } from '#shared/domain/invitations/ports.ts';
import type { UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';
import type { DeidentificationPolicies, StoredDeidentificationPolicy } from '#shared/domain/settings/ports.ts';
import { createChainedMemoryAuditLog } from '#shared/domain/audit/memory-audit-log.ts';
import { createMemoryObjectStore } from '#tests/integration/datasets-harness.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import type { IdentityAdmin, OrganisationStore, UsageDay } from '#shared/domain/organisation/ports.ts';
import type {
  PatientSessionRecord,
  PatientShareRecord,
  ShareAccessRecord,
  ShareStore,
  TeamShareRecord,
} from '#shared/domain/shares/ports.ts';

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
            (!q.ownerUserId || d.ownerUserId === q.ownerUserId) &&
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
    async putAssets(list) {
      for (const a of list) assets.set(`${a.hospitalId}/${a.datasetId}/${a.id}`, a);
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

export function fakeUploads(): UploadRepository & { sessions: Map<string, UploadSessionRecord> } {
  const sessions = new Map<string, UploadSessionRecord>();
  return {
    sessions,
    async createSession(s) {
      sessions.set(s.sessionId, s);
    },
    async getSession(h, id) {
      const s = sessions.get(id);
      return s?.hospitalId === h ? s : undefined;
    },
    async setSessionStatus(_h, id, status) {
      sessions.set(id, { ...sessions.get(id)!, status });
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

/** The settings port in memory: policies, profiles, preferences and the storage-used counter. */
export function fakeSettings(init: { storageUsedBytes?: Record<string, number>; hospitals?: string[] } = {}) {
  const policies = new Map<string, Stored<unknown>>();
  const profiles = new Map<string, Record<string, unknown>>();
  const preferences = new Map<string, NotificationPreferences>();
  const storage = new Map(Object.entries(init.storageUsedBytes ?? {}));
  const monthlyReports = new Set<string>();
  const hospitalProfiles = new Map<string, Partial<HospitalProfile> & { name: string }>(
    (init.hospitals ?? ['h1']).map((id) => [id, { name: `Hospital ${id}` }]),
  );
  const store: SettingsStore = {
    getSystemPolicy: async () => policies.get('system') as Stored<Policy> | undefined,
    putSystemPolicy: async (p) => void policies.set('system', p),
    getHospitalPolicy: async (h) => policies.get(`h/${h}`) as Stored<Policy> | undefined,
    putHospitalPolicy: async (h, p) => void policies.set(`h/${h}`, p),
    getTeamPolicy: async (h, t) => policies.get(`t/${h}/${t}`) as Stored<TeamPolicyOverrides> | undefined,
    putTeamPolicy: async (h, t, p) => void policies.set(`t/${h}/${t}`, p),
    getHospitalProfile: async (h) => hospitalProfiles.get(h),
    updateHospitalProfile: async (h, profile) => void hospitalProfiles.set(h, profile),
    storageUsedBytes: async (h) => storage.get(h) ?? 0,
    listHospitalIds: async () => [...hospitalProfiles.keys()],
    claimMonthlyReport: async (h, month) => {
      if (monthlyReports.has(`${h}/${month}`)) return false;
      monthlyReports.add(`${h}/${month}`);
      return true;
    },
    getUserProfile: async (h, u) =>
      profiles.get(`${h}/${u}`) as (UserProfile & { email: string; avatarKey?: string }) | undefined,
    updateUserProfile: async (h, u, fields) =>
      void profiles.set(`${h}/${u}`, { ...(profiles.get(`${h}/${u}`) ?? {}), ...fields }),
    getNotificationPreferences: async (h, u) => preferences.get(`${h}/${u}`),
    putNotificationPreferences: async (h, u, p) => void preferences.set(`${h}/${u}`, p),
  };
  return { ...store, policies, profiles, preferences, storage, hospitalProfiles };
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
  const org = fakeOrganisation();
  const identity = fakeIdentity();
  return {
    notifications: fakeNotifications(),
    datasets: fakeDatasets(audit),
    audit,
    directory: org.store as Directory,
    organisation: org.store as OrganisationStore,
    org,
    identity: identity.identity,
    identityCalls: identity.calls,
    uploads: fakeUploads(),
    policies: fakePolicies(),
    settings: fakeSettings(),
    avatars: {
      presignPut: async (key: string, contentType: string, size: number, ttl: number) =>
        `https://memory.invalid/assets/${key}?put&type=${encodeURIComponent(contentType)}&size=${size}&ttl=${ttl}`,
      presignGet: async (key: string, ttl: number) => `https://memory.invalid/assets/${key}?ttl=${ttl}`,
    },
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

/** In-memory directory and organisation store with the adapters' contracts (index order = name, then id). */
export function fakeOrganisation() {
  const hospitals = new Map<string, HospitalRecord>();
  const departments = new Map<string, DepartmentRecord>();
  const teams = new Map<string, TeamRecord>();
  const users = new Map<string, UserRecord>();
  const summary: Record<string, number> = {};
  const patientMarkers = new Set<string>();
  const usage = new Map<string, UsageDay>();
  const k = (h: string, id: string) => `${h}/${id}`;
  const byName = (a: { name: string; id: string }, b: { name: string; id: string }) =>
    `${a.name.toLowerCase()}#${a.id}`.localeCompare(`${b.name.toLowerCase()}#${b.id}`);
  const userName = (u: UserRecord) => ({ name: `${u.firstName} ${u.lastName}`, id: u.id });
  function page<T extends { id: string }>(all: T[], limit: number, startKey?: Record<string, string>) {
    const start = startKey ? all.findIndex((x) => x.id === startKey.id) + 1 : 0;
    const items = all.slice(start, start + limit);
    return { items, ...(start + limit < all.length ? { lastKey: { id: items.at(-1)!.id } } : {}) };
  }
  const merge = <T extends object>(current: T, fields: Partial<T>): T => {
    const next = { ...current, ...fields } as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete next[key];
    return next as T;
  };
  const bump = (item: Record<string, unknown> | undefined, deltas: Record<string, number | undefined>) => {
    if (!item) return;
    for (const [name, d] of Object.entries(deltas)) if (d) item[name] = Number(item[name] ?? 0) + d;
  };
  const store: Directory & OrganisationStore = {
    async getUser(h, id) {
      return users.get(k(h, id));
    },
    async getHospital(h) {
      return hospitals.get(h);
    },
    async getTeam(h, id) {
      return teams.get(k(h, id));
    },
    async putHospital(h) {
      hospitals.set(h.id, { ...hospitals.get(h.id), ...h });
    },
    async putDepartment(d) {
      departments.set(k(d.hospitalId, d.id), { ...departments.get(k(d.hospitalId, d.id)), ...d });
    },
    async putTeam(t) {
      teams.set(k(t.hospitalId, t.id), { ...teams.get(k(t.hospitalId, t.id)), ...t });
    },
    async putUser(u) {
      users.set(k(u.hospitalId, u.id), { ...u });
    },
    async recordLogin(h, id, at) {
      const u = users.get(k(h, id));
      if (u) u.lastLogin = at;
    },
    async listAllUsers(h) {
      return [...users.values()].filter((u) => u.hospitalId === h);
    },
    async add(h, target, deltas) {
      const item =
        target.kind === 'hospital'
          ? hospitals.get(h)
          : target.kind === 'department'
            ? departments.get(k(h, target.departmentId))
            : teams.get(k(h, target.teamId));
      bump(item as Record<string, unknown> | undefined, deltas);
    },
    async addSummary(deltas) {
      bump(summary, {
        hospitals: deltas.hospitals,
        users: deltas.users,
        patients: deltas.patients,
        storageUsedBytes: deltas.storageUsedBytes,
      });
      if (deltas.plan)
        bump(summary, {
          [`h_${deltas.plan.plan}`]: deltas.plan.hospitals,
          [`u_${deltas.plan.plan}`]: deltas.plan.users,
        });
    },
    async addUsage(h, scope, day, deltas) {
      const key = `${h}|${scope}|${day}`;
      const current = usage.get(key) ?? {
        day,
        runs: 0,
        computeSeconds: 0,
        gbSeconds: 0,
        signInAttempts: 0,
        signIns: 0,
        storageBytesAdded: 0,
      };
      usage.set(key, {
        day,
        runs: current.runs + (deltas.runs ?? 0),
        computeSeconds: current.computeSeconds + (deltas.computeSeconds ?? 0),
        gbSeconds: current.gbSeconds + (deltas.gbSeconds ?? 0),
        signInAttempts: current.signInAttempts + (deltas.signInAttempts ?? 0),
        signIns: current.signIns + (deltas.signIns ?? 0),
        storageBytesAdded: current.storageBytesAdded + (deltas.storageBytesAdded ?? 0),
      });
    },
    async listUsage(h, scope, from, to) {
      return [...usage.entries()]
        .filter(([k, d]) => k.startsWith(`${h}|${scope}|`) && d.day >= from && d.day <= to)
        .map(([, d]) => d)
        .sort((a, b) => a.day.localeCompare(b.day));
    },
    async markPatient(h, scope, alias) {
      const key = `${h}|${scope}|${alias}`;
      if (patientMarkers.has(key)) return false;
      patientMarkers.add(key);
      return true;
    },
    async listHospitals(q) {
      const all = [...hospitals.values()]
        .filter(
          (h) =>
            h.subscriptionPlan &&
            (!q.plan || h.subscriptionPlan === q.plan) &&
            (!q.status || (h.status ?? 'ACTIVE') === q.status) &&
            (!q.search || [h.name, h.city ?? ''].some((t) => t.toLowerCase().startsWith(q.search!))),
        )
        .sort(byName);
      return page(all, q.limit, q.startKey);
    },
    async hospitalSummary() {
      const plans = ['TRIAL', 'BASIC', 'PRO', 'ENTERPRISE'] as const;
      return {
        hospitals: summary.hospitals ?? 0,
        users: summary.users ?? 0,
        patients: summary.patients ?? 0,
        storageUsedBytes: summary.storageUsedBytes ?? 0,
        activeHospitalsByPlan: Object.fromEntries(plans.map((p) => [p, summary[`h_${p}`] ?? 0])),
        activeUsersByPlan: Object.fromEntries(plans.map((p) => [p, summary[`u_${p}`] ?? 0])),
      };
    },
    async createHospital(h) {
      if (hospitals.has(h.id) || [...hospitals.values()].some((x) => x.slug === h.slug)) throw new ConflictError();
      hospitals.set(h.id, { ...h });
    },
    async updateHospital(id, fields) {
      const current = hospitals.get(id);
      if (!current) throw new NotFoundError('HOSPITAL_NOT_FOUND');
      const next = merge(current, fields);
      hospitals.set(id, next);
      return next;
    },
    async lockAdminChanges(h, now, until) {
      const hospital = hospitals.get(h) as (HospitalRecord & { adminChangeLock?: string }) | undefined;
      if (!hospital || (hospital.adminChangeLock && hospital.adminChangeLock >= now)) return false;
      hospital.adminChangeLock = until;
      return true;
    },
    async unlockAdminChanges(h) {
      delete (hospitals.get(h) as { adminChangeLock?: string } | undefined)?.adminChangeLock;
    },
    async listDepartments(h) {
      return [...departments.values()].filter((d) => d.hospitalId === h).sort(byName);
    },
    async getDepartment(h, id) {
      return departments.get(k(h, id));
    },
    async createDepartment(d) {
      if (departments.has(k(d.hospitalId, d.id))) throw new ConflictError();
      departments.set(k(d.hospitalId, d.id), { ...d });
    },
    async updateDepartment(h, id, fields) {
      const current = departments.get(k(h, id));
      if (!current) throw new NotFoundError();
      const next = merge(current, fields);
      departments.set(k(h, id), next);
      return next;
    },
    async deleteDepartment(h, id) {
      const d = departments.get(k(h, id));
      if (!d || (d.teamCount ?? 0) > 0 || (d.memberCount ?? 0) > 0) throw new ConflictError();
      departments.delete(k(h, id));
    },
    async listTeams(q) {
      const all = [...teams.values()]
        .filter(
          (t) =>
            t.hospitalId === q.hospitalId &&
            (!q.departmentId || t.departmentId === q.departmentId) &&
            (q.includeArchived || t.isActive !== false),
        )
        .sort(byName);
      return page(all, q.limit, q.startKey);
    },
    async createTeam(t) {
      teams.set(k(t.hospitalId, t.id), { ...t });
    },
    async updateTeam(h, id, fields) {
      const current = teams.get(k(h, id));
      if (!current) throw new NotFoundError();
      const next = merge(current, fields);
      teams.set(k(h, id), next);
      return next;
    },
    async claimTeamSeat(h, teamId) {
      const team = teams.get(k(h, teamId));
      if (!team || team.isActive === false || (team.memberCount ?? 0) >= (team.maxMembers ?? 15)) return false;
      team.memberCount = (team.memberCount ?? 0) + 1;
      return true;
    },
    async countTeamMembers(h, teamId, status) {
      return [...users.values()].filter(
        (u) => u.hospitalId === h && u.teamId === teamId && (!status || u.status === status),
      ).length;
    },
    async listUsers(q) {
      const all = [...users.values()]
        .filter(
          (u) =>
            u.hospitalId === q.hospitalId &&
            (!q.search ||
              [u.firstName, u.lastName, `${u.firstName} ${u.lastName}`, u.email].some((t) =>
                t.toLowerCase().startsWith(q.search!),
              )) &&
            (!q.role || u.role === q.role) &&
            (!q.departmentId || u.departmentId === q.departmentId) &&
            (!q.teamId || u.teamId === q.teamId) &&
            (!q.status || u.status === q.status),
        )
        .sort((a, b) => byName(userName(a), userName(b)));
      return page(all, q.limit, q.startKey);
    },
    async findUserByEmail(email) {
      return [...users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase());
    },
    async updateUser(h, id, fields) {
      const current = users.get(k(h, id));
      if (!current) throw new NotFoundError('USER_NOT_FOUND');
      const next = merge(current, fields);
      users.set(k(h, id), next);
      return next;
    },
  };
  return { store, hospitals, departments, teams, users, summary };
}

/** Records every identity-provider call; `fail` makes the named operation throw. */
export function fakeIdentity() {
  const calls: string[] = [];
  const identity: IdentityAdmin = {
    async changeGroup(u, from, to) {
      calls.push(`group ${u} ${from}->${to}`);
    },
    async disable(u) {
      calls.push(`disable ${u}`);
    },
    async enable(u) {
      calls.push(`enable ${u}`);
    },
    async signOut(u) {
      calls.push(`signOut ${u}`);
    },
    async resetMfa(u) {
      calls.push(`resetMfa ${u}`);
    },
  };
  return { identity, calls };
}

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
    listAllUsers: async (h) => users.filter((u) => u.hospitalId === h),
    putHospital: async () => {},
    putDepartment: async () => {},
    putTeam: async () => {},
    putUser: async () => {},
    recordLogin: async () => {},
  };
}

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
    listAllUsers: async (h) => [...users.values()].filter((u) => u.hospitalId === h),
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

/** The share store in memory, with the DynamoDB adapter's contracts (one grant per recipient, versioned updates). */
export function fakeShares(): ShareStore & {
  team: Map<string, TeamShareRecord>;
  patient: Map<string, PatientShareRecord>;
  events: ShareAccessRecord[];
} {
  const team = new Map<string, TeamShareRecord>();
  const patient = new Map<string, PatientShareRecord>();
  const sessions = new Map<string, PatientSessionRecord>();
  const events: ShareAccessRecord[] = [];
  const hits = new Map<string, number>();
  const grantKey = (h: string, r: { type: string; id: string }, d: string) => `${h}|${r.type}|${r.id}|${d}`;
  const grants = () =>
    new Map(
      [...team.values()].map((s) => [
        grantKey(s.hospitalId, { type: s.recipientType, id: s.recipientId }, s.datasetId),
        s,
      ]),
    );
  return {
    team,
    patient,
    events,
    async putTeamShare(share) {
      if (
        grants().has(grantKey(share.hospitalId, { type: share.recipientType, id: share.recipientId }, share.datasetId))
      )
        throw new ConflictError();
      team.set(share.id, structuredClone(share));
    },
    getTeamShare: async (h, d, id) => {
      const s = team.get(id);
      return s && s.hospitalId === h && s.datasetId === d ? structuredClone(s) : undefined;
    },
    listTeamSharesOfDataset: async (h, d) => [...team.values()].filter((s) => s.hospitalId === h && s.datasetId === d),
    listTeamSharesFromTeam: async (h, t) =>
      [...team.values()]
        .filter((s) => s.hospitalId === h && s.sourceTeamId === t)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    deleteTeamShare: async (share) => void team.delete(share.id),
    findGrant: async (h, r, d) => grants().get(grantKey(h, r, d)),
    listReceived: async (h, r) =>
      [...team.values()].filter((s) => s.hospitalId === h && s.recipientType === r.type && s.recipientId === r.id),
    putPatientShare: async (share) => void patient.set(share.id, structuredClone(share)),
    getPatientShare: async (h, d, id) => {
      const s = patient.get(id);
      return s && s.hospitalId === h && s.datasetId === d ? structuredClone(s) : undefined;
    },
    listPatientShares: async (h, d) =>
      [...patient.values()].filter((s) => s.hospitalId === h && s.datasetId === d).map((s) => structuredClone(s)),
    findPatientShareByTokenHash: async (hash) => {
      const s = [...patient.values()].find((p) => p.tokenHash === hash);
      return s ? structuredClone(s) : undefined;
    },
    async updatePatientShare(share, fields, expectedVersion) {
      const current = patient.get(share.id);
      if (!current || current.version !== expectedVersion) throw new ConflictError();
      const next = { ...current, ...fields, version: current.version + 1 } as PatientShareRecord;
      for (const [k, v] of Object.entries(fields)) if (v === undefined) delete (next as Record<string, unknown>)[k];
      patient.set(share.id, next);
      return structuredClone(next);
    },
    putSession: async (s) => void sessions.set(s.sessionHash, { ...s }),
    getSession: async (hash) => sessions.get(hash),
    addAccessEvent: async (e) => void events.push({ ...e }),
    listAccessEvents: async (h, id) => events.filter((e) => e.hospitalId === h && e.shareId === id),
    async hit(key, windowSeconds, now) {
      const bucket = `${key}|${Math.floor(Date.parse(now) / 1000 / windowSeconds)}`;
      const n = (hits.get(bucket) ?? 0) + 1;
      hits.set(bucket, n);
      return n;
    },
  };
}

/**
 * Integrations in memory (same contract as the DynamoDB adapter: an AE title is claimed once over the deployment, the
 * lookups find active integrations only), and app clients recorded instead of made in a user pool.
 */
export function fakeIntegrations() {
  const items = new Map<string, IntegrationRecord>();
  const aeTitles = new Map<string, string>();
  const appClients: { created: string[]; removed: string[] } = { created: [], removed: [] };
  const store: IntegrationStore = {
    async create(record) {
      if (record.aeTitle && aeTitles.has(record.aeTitle)) return false;
      if (record.aeTitle) aeTitles.set(record.aeTitle, record.id);
      items.set(record.id, structuredClone(record));
      return true;
    },
    get: async (h, id) => (items.get(id)?.hospitalId === h ? structuredClone(items.get(id)) : undefined),
    list: async (h) => [...items.values()].filter((i) => i.hospitalId === h).map((i) => structuredClone(i)),
    byClientId: async (clientId) => [...items.values()].find((i) => i.clientId === clientId && i.status === 'ACTIVE'),
    byAeTitle: async (aeTitle) => {
      const id = aeTitles.get(aeTitle);
      return id ? items.get(id) : undefined;
    },
    async revoke(h, id, at) {
      const item = items.get(id)!;
      const revoked = { ...item, status: 'REVOKED' as const, revokedAt: at };
      items.set(id, revoked);
      if (item.aeTitle) aeTitles.delete(item.aeTitle);
      return structuredClone(revoked);
    },
    touch: async () => undefined,
  };
  const machineClients: MachineClients = {
    async create(name) {
      appClients.created.push(name);
      return { clientId: `client-${appClients.created.length}`, clientSecret: `secret-${appClients.created.length}` };
    },
    async remove(clientId) {
      appClients.removed.push(clientId);
    },
  };
  return { store, machineClients, appClients, items };
}
