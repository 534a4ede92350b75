import { createMemoryShareStore } from '#functions/adapters/memory/shares-store.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import type { DepartmentRecord, Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { InvitationDeps } from '#shared/domain/invitations/deps.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import type { IdentityAdmin, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import {
  createMemoryAuditLog,
  createMemoryDatasetRepository,
  createMemoryIntegrationStore,
  createMemoryInvitationRepository,
  createMemoryMachineClients,
  createMemoryNotificationInbox,
  createMemoryNotificationLedger,
  createMemoryObjectStore,
  createMemoryOrganisation,
  createMemoryPolicyRepository,
  createMemorySettingsStore,
  createMemoryUploadRepository,
  memoryPageTokens,
  type MemoryAuditLog,
} from '#functions/adapters/memory/index.ts';
import { createMemoryJobStore } from '#functions/adapters/memory/jobs-store.ts';
import { JOB_KINDS } from '#functions/jobs/job-kinds.ts';
import type { JobRef } from '#shared/domain/jobs/ports.ts';
import { runJob, type JobKinds, type JobRunnerDeps } from '#shared/domain/jobs/runner.ts';
import { startRetentionJobs } from '#shared/domain/settings/retention.ts';

/**
 * What the domain tests share beyond the in-memory adapters (functions/adapters/memory): callers, a deterministic
 * audit clock, every port of a handler in one object, and the test-only stand-ins (a recording identity provider, a
 * fixed directory, the invitation world with its mailbox and a mail server that can be made to fail).
 */

/** The audit log with ids 1, 2, ... and one second per event from 2026-01-01, so the chain's hashes are stable. */
export function fakeAudit(): MemoryAuditLog {
  return createMemoryAuditLog({
    newId: (count) => String(count + 1),
    now: (count) => `2026-01-01T00:00:${String(count).padStart(2, '0')}.000Z`,
  });
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

export function ports() {
  let n = 0;
  const audit = fakeAudit();
  const org = createMemoryOrganisation();
  const identity = fakeIdentity();
  return {
    notifications: createMemoryNotificationInbox(),
    notificationLedger: createMemoryNotificationLedger(),
    datasets: createMemoryDatasetRepository(audit),
    audit,
    directory: org.store as Directory,
    organisation: org.store as OrganisationStore,
    org,
    identity: identity.identity,
    identityCalls: identity.calls,
    integrations: createMemoryIntegrationStore(),
    machineClients: createMemoryMachineClients(),
    uploads: createMemoryUploadRepository(),
    policies: createMemoryPolicyRepository(),
    settings: createMemorySettingsStore(),
    avatars: {
      presignPut: async (key: string, contentType: string, size: number, ttl: number) =>
        `https://memory.invalid/assets/${key}?put&type=${encodeURIComponent(contentType)}&size=${size}&ttl=${ttl}`,
      presignGet: async (key: string, ttl: number) => `https://memory.invalid/assets/${key}?ttl=${ttl}`,
    },
    objects: createMemoryObjectStore(),
    shares: createMemoryShareStore(),
    pageTokens: memoryPageTokens,
    pseudonymizer: { patientAlias: async (h: string, mrn: string) => `PT-${h}-${mrn.length}` },
    pipeline: {
      started: [] as unknown[],
      async start(input: unknown) {
        this.started.push(input);
      },
    },
    jobs: createMemoryJobStore(),
    /** Records the jobs handed over; runStartedJobs plays the worker. */
    jobStarter: {
      started: [] as JobRef[],
      async start(ref: JobRef) {
        this.started.push(ref);
      },
    },
    clock: { now: () => '2026-02-01T10:00:00.000Z' },
    ids: { newId: () => `id-${++n}` },
  };
}

/** Plays the job worker (docs/jobs.md): runs every job handed over so far to its end, with the product's kinds. */
export async function runStartedJobs<D extends JobRunnerDeps & { jobStarter: { started: JobRef[] } }>(
  deps: D,
): Promise<void> {
  for (let ref = deps.jobStarter.started.shift(); ref; ref = deps.jobStarter.started.shift())
    await runJob(ref, JOB_KINDS as unknown as JobKinds<D>, deps);
}

/**
 * The data-retention schedule of the day `now` falls on and its jobs run to their end (docs/pipeline.md#data-retention):
 * answers the datasets they moved to the recycle bin and purged from it.
 */
export async function runRetention(p: ReturnType<typeof ports>, now = p.clock.now()) {
  const at = { ...p, clock: { now: () => now } };
  const { started } = await startRetentionJobs(at);
  await runStartedJobs(at);
  const results = (await Promise.all(started.map((ref) => p.jobs.listResults(ref, 500)))).flatMap((r) => r.items);
  const done = (ref: string) => results.filter((r) => r.outcome === 'SUCCEEDED' && r.ref === ref).map((r) => r.subject);
  return { moved: done('recycle-bin'), purged: done('purged'), results };
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
  const repo = createMemoryInvitationRepository();
  const { invitations, locks, counters } = repo;
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
  const started: JobRef[] = [];
  const hospitalCounters = new Map<string, number>();
  const deps = {
    jobs: createMemoryJobStore(),
    jobStarter: {
      started,
      start: async (ref: JobRef) => void started.push(ref),
    },
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
    // Seats as the table keeps them: one conditional step on the team's memberCount (default maximum 15).
    organisation: {
      async claimTeamSeat(h, id) {
        const team = teams.find((t) => t.hospitalId === h && t.id === id);
        if (!team || team.isActive === false || (team.memberCount ?? 0) >= (team.maxMembers ?? 15)) return false;
        team.memberCount = (team.memberCount ?? 0) + 1;
        return true;
      },
      listUsers: async (query) => ({
        items: [...users.values()].filter((u) => u.hospitalId === query.hospitalId),
      }),
      async add(h, target, deltas) {
        const team =
          target.kind === 'team' ? teams.find((t) => t.hospitalId === h && t.id === target.teamId) : undefined;
        if (team) team.memberCount = (team.memberCount ?? 0) + (deltas.memberCount ?? 0);
        // The hospital item's counters other than the invitations' (kept by the repository above).
        if (target.kind === 'hospital')
          for (const [name, by] of Object.entries(deltas))
            hospitalCounters.set(`${h}/${name}`, (hospitalCounters.get(`${h}/${name}`) ?? 0) + (by ?? 0));
      },
    },
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
    pageTokens: memoryPageTokens,
  } satisfies InvitationDeps & JobRunnerDeps & Record<string, unknown>;
  /** The token in the newest e-mail to this address. */
  const tokenFor = (email: string) => {
    const message = mailbox.filter((m) => m.to === email).at(-1);
    return message ? decodeURIComponent(/token=([^\s"&<]+)/.exec(message.text)![1]!) : undefined;
  };
  return {
    deps,
    state,
    invitations,
    locks,
    counters,
    hospitalCounters,
    users,
    mailbox,
    identities,
    audit,
    teams,
    tokenFor,
  };
}
