import type { DepartmentRecord, Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { OrganisationStore, ReportCountItem, UsageDay } from '#shared/domain/organisation/ports.ts';

/** In-memory directory and organisation store with the adapters' contracts (index order = name, then id). */
export function createMemoryOrganisation() {
  const hospitals = new Map<string, HospitalRecord>();
  const departments = new Map<string, DepartmentRecord>();
  const teams = new Map<string, TeamRecord>();
  const users = new Map<string, UserRecord>();
  const summary: Record<string, number> = {};
  const patientMarkers = new Set<string>();
  const usage = new Map<string, UsageDay>();
  const reportItems = new Map<string, ReportCountItem>();
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
    async addReportCounts(h, target, deltas, names = {}) {
      const key = `${h}|${target.scope}|${target.period}`;
      const item = reportItems.get(key) ?? { ...target, counts: {}, names: {} };
      for (const [name, n] of Object.entries(deltas)) item.counts[name] = (item.counts[name] ?? 0) + n;
      Object.assign(item.names, names);
      reportItems.set(key, item);
    },
    async putReportCounts(h, item) {
      reportItems.set(`${h}|${item.scope}|${item.period}`, structuredClone(item));
    },
    async deleteReportCounts(h, target) {
      reportItems.delete(`${h}|${target.scope}|${target.period}`);
    },
    async listReportCounts(h, scope, from, to) {
      return [...reportItems.entries()]
        .filter(
          ([key, item]) =>
            key.startsWith(`${h}|${scope}|`) &&
            item.period.length === from.length &&
            item.period >= from &&
            item.period <= to,
        )
        .map(([, item]) => structuredClone(item))
        .sort((a, b) => a.period.localeCompare(b.period));
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
