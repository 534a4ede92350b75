import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { HospitalRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, RuleError } from '#shared/domain/errors.ts';
import {
  PLAN_PRICE_PER_USER,
  SUBSCRIPTION_PLANS,
  type CreateHospitalRequest,
  type DeleteHospitalRequest,
  type Hospital,
  type HospitalAdminOverview,
  type HospitalPage,
  type HospitalWithJob,
  type ListHospitalsQuery,
  type UpdateHospitalRequest,
} from '#shared/schemas/api/organisation.ts';
import { resumeDicomWebClients, suspendDicomWebClients } from '#shared/domain/integrations/manage-integrations.ts';
import { startJob, type JobKindHandler, type JobRunnerDeps, type JobStartDeps } from '#shared/domain/jobs/runner.ts';
import type { JobRecord } from '#shared/domain/jobs/ports.ts';
import { toJob } from '#shared/domain/jobs/view.ts';
import { actorOf, loadHospital, requireHospitalAdmin, requireSuperAdmin } from './common.ts';
import type { OrganisationDeps } from './ports.ts';
import { planOf, statusOf, toHospital } from './views.ts';

/** URL-safe slug of a hospital name: lower-case words joined by hyphens. */
export function slugOf(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'hospital'
  );
}

/**
 * Hospital Management (super admin): one page of hospitals from an index (name order; status or plan index for a
 * filter; search tokens for a name or city prefix) and the four summary cards from the counters over every hospital.
 */
export async function listHospitals(
  query: ListHospitalsQuery,
  caller: Caller,
  deps: Pick<OrganisationDeps, 'organisation' | 'pageTokens'>,
): Promise<HospitalPage> {
  requireSuperAdmin(caller);
  const search = query.q?.trim().toLowerCase() || undefined;
  const scope = JSON.stringify(['hospitals', search ?? '', query.plan ?? '*', query.status ?? '*']);
  const startKey = query.nextToken ? await deps.pageTokens.open(scope, query.nextToken) : undefined;
  const [page, counters] = await Promise.all([
    deps.organisation.listHospitals({
      search,
      plan: query.plan,
      status: query.status,
      limit: query.limit,
      startKey,
    }),
    deps.organisation.hospitalSummary(),
  ]);
  const activeSubscriptions = SUBSCRIPTION_PLANS.filter((p) => p !== 'TRIAL').reduce(
    (n, p) => n + (counters.activeHospitalsByPlan[p] ?? 0),
    0,
  );
  const monthlyRevenue = SUBSCRIPTION_PLANS.reduce(
    (n, p) => n + PLAN_PRICE_PER_USER[p] * Math.max(0, counters.activeUsersByPlan[p] ?? 0),
    0,
  );
  return {
    items: page.items.map(toHospital),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
    summary: {
      totalHospitals: Math.max(0, counters.hospitals),
      activeSubscriptions: Math.max(0, activeSubscriptions),
      totalUsers: Math.max(0, counters.users),
      monthlyRevenue,
    },
  };
}

export async function getHospital(
  hospitalId: string,
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<Hospital> {
  requireSuperAdmin(caller);
  return toHospital(await loadHospital(deps, hospitalId));
}

/**
 * Add Hospital: the hospital (with a unique slug) and its first hospital admin as a user record in status INVITED,
 * with no identity yet (the invitation turns it into one, docs/states.md#users).
 */
export async function createHospital(
  request: CreateHospitalRequest,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<Hospital> {
  requireSuperAdmin(caller);
  const { adminFirstName, adminLastName, adminEmail, adminPhone, subscriptionPlan, ...details } = request;
  if (await deps.organisation.findUserByEmail(adminEmail)) throw new RuleError('EMAIL_IN_USE');
  const now = deps.clock.now();
  const hospital: HospitalRecord = {
    id: deps.ids.newId(),
    slug: slugOf(details.name),
    ...details,
    subscriptionPlan,
    status: 'ACTIVE',
    userCount: 1,
    // Its first admin, INVITED until the invitation is accepted (docs/domain.md#counters).
    users_INVITED: 1,
    teamCount: 0,
    departmentCount: 0,
    datasetCount: 0,
    storageUsedBytes: 0,
    pendingInvitationCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.organisation.createHospital(hospital);
  } catch (error) {
    if (error instanceof ConflictError) throw new RuleError('HOSPITAL_SLUG_TAKEN');
    throw error;
  }
  const adminId = deps.ids.newId();
  await deps.directory.putUser({
    id: adminId,
    email: adminEmail.toLowerCase(),
    firstName: adminFirstName,
    lastName: adminLastName,
    ...(adminPhone ? { phone: adminPhone } : {}),
    role: 'HOSPITAL_ADMIN',
    status: 'INVITED',
    hospitalId: hospital.id,
    teamId: null,
    permissions: [...DEFAULT_PERMISSIONS.HOSPITAL_ADMIN],
    createdAt: now,
  });
  await deps.organisation.addSummary({
    hospitals: 1,
    users: 1,
    plan: { plan: subscriptionPlan, hospitals: 1, users: 1 },
  });
  await deps.audit.record({
    hospitalId: hospital.id,
    action: 'HOSPITAL_CREATED',
    ...actorOf(caller),
    details: { hospitalId: hospital.id, slug: hospital.slug, subscriptionPlan, firstAdminUserId: adminId },
  });
  return toHospital(hospital);
}

export async function updateHospital(
  hospitalId: string,
  request: UpdateHospitalRequest,
  caller: Caller,
  deps: OrganisationDeps,
): Promise<Hospital> {
  requireSuperAdmin(caller);
  const before = await loadHospital(deps, hospitalId);
  const { website, description, addressLine2, specialization, ...required } = request;
  const updated = await deps.organisation.updateHospital(hospitalId, {
    ...required,
    website,
    description,
    addressLine2,
    specialization: specialization ?? before.specialization,
    subscriptionPlan: request.subscriptionPlan ?? before.subscriptionPlan,
    updatedAt: deps.clock.now(),
  });
  const from = planOf(before);
  const to = planOf(updated);
  if (from !== to && statusOf(updated) === 'ACTIVE') {
    const users = updated.userCount ?? 0;
    await deps.organisation.addSummary({ plan: { plan: from, hospitals: -1, users: -users } });
    await deps.organisation.addSummary({ plan: { plan: to, hospitals: 1, users } });
  }
  await deps.audit.record({
    hospitalId,
    action: 'HOSPITAL_UPDATED',
    ...actorOf(caller),
    details: {
      fields: Object.keys(request),
      ...(from !== to ? { before: { subscriptionPlan: from }, after: { subscriptionPlan: to } } : {}),
    },
  });
  return toHospital(updated);
}

/**
 * Delete (deactivate): the status goes first, so the API refuses the hospital's users from the next request; the
 * answer is 202 with the job (docs/jobs.md) that disables their identities and suspends the DICOMweb clients. A
 * retry on a hospital already deactivated starts another walk (disabling twice changes nothing).
 */
export async function deleteHospital(
  hospitalId: string,
  request: DeleteHospitalRequest,
  caller: Caller,
  deps: OrganisationDeps & JobStartDeps,
): Promise<HospitalWithJob> {
  requireSuperAdmin(caller);
  const hospital = await loadHospital(deps, hospitalId);
  if (request.confirmName !== hospital.name) throw new RuleError('HOSPITAL_NAME_MISMATCH');
  const hasData = (hospital.userCount ?? 0) > 0 || (hospital.datasetCount ?? 0) > 0;
  if (hasData && !request.acknowledgeImpact) throw new RuleError('HOSPITAL_DELETE_NEEDS_CONFIRMATION');
  const wasActive = statusOf(hospital) === 'ACTIVE';
  const now = deps.clock.now();
  const updated = wasActive
    ? await deps.organisation.updateHospital(hospitalId, { status: 'DEACTIVATED', deactivatedAt: now, updatedAt: now })
    : hospital;
  if (wasActive)
    await deps.organisation.addSummary({
      plan: { plan: planOf(hospital), hospitals: -1, users: -(hospital.userCount ?? 0) },
    });
  const job = await startJob(
    {
      kind: 'HOSPITAL_DEACTIVATION',
      ownerHospitalId: caller.hospitalId,
      hospitalId,
      input: { before: statusOf(hospital), acknowledgedImpact: request.acknowledgeImpact },
      total: hospital.userCount ?? null,
      createdBy: { userId: caller.userId, name: actorOf(caller).actorName },
    },
    deps,
  );
  return { ...toHospital(updated), jobId: job.id, job: toJob(job) };
}

/**
 * Restore: the hospital is active again at once; its job enables the identities of users whose own status is ACTIVE
 * and gives its active DICOMweb clients tokens again (a retry walks them again).
 */
export async function restoreHospital(
  hospitalId: string,
  caller: Caller,
  deps: OrganisationDeps & JobStartDeps,
): Promise<HospitalWithJob> {
  requireSuperAdmin(caller);
  const hospital = await loadHospital(deps, hospitalId);
  const wasDeactivated = statusOf(hospital) === 'DEACTIVATED';
  const updated = wasDeactivated
    ? await deps.organisation.updateHospital(hospitalId, {
        status: 'ACTIVE',
        deactivatedAt: undefined,
        updatedAt: deps.clock.now(),
      })
    : hospital;
  if (wasDeactivated)
    await deps.organisation.addSummary({
      plan: { plan: planOf(hospital), hospitals: 1, users: updated.userCount ?? 0 },
    });
  const job = await startJob(
    {
      kind: 'HOSPITAL_RESTORE',
      ownerHospitalId: caller.hospitalId,
      hospitalId,
      input: { before: statusOf(hospital) },
      total: hospital.userCount ?? null,
      createdBy: { userId: caller.userId, name: actorOf(caller).actorName },
    },
    deps,
  );
  return { ...toHospital(updated), jobId: job.id, job: toJob(job) };
}

/** Users one chunk of a deactivation or restore walks (one page of the hospital's users). */
export const HOSPITAL_JOB_CHUNK_USERS = 100;

/**
 * A chunk of a hospital's users from the job's cursor (a sealed-free DynamoDB key: it never leaves the server). A
 * hospital whose status no longer matches the job's (restored during its deactivation, or the reverse) ends the walk:
 * the later job does the work.
 */
function userWalk(expected: 'ACTIVE' | 'DEACTIVATED'): JobKindHandler<OrganisationDeps & JobRunnerDeps>['chunk'] {
  return async (job, cursor, deps) => {
    const hospital = await deps.directory.getHospital(job.hospitalId);
    if (!hospital || statusOf(hospital) !== expected) return { items: [], next: null };
    const page = await deps.organisation.listUsers({
      hospitalId: job.hospitalId,
      limit: HOSPITAL_JOB_CHUNK_USERS,
      startKey: cursor ? (JSON.parse(cursor) as Record<string, string>) : undefined,
    });
    return {
      items: page.items.map((user, i) => ({ seq: job.processed + i + 1, subject: user.id, value: user })),
      next: page.lastKey ? JSON.stringify(page.lastKey) : null,
    };
  };
}

const jobActor = (job: JobRecord) => ({ actorUserId: job.createdBy.userId, actorName: job.createdBy.name });

/** Deactivation's job: each user's identity disabled and signed out, then the DICOMweb clients suspended, audited. */
export const hospitalDeactivationJob: JobKindHandler<OrganisationDeps & JobRunnerDeps> = {
  chunk: userWalk('DEACTIVATED'),
  async run(_job, item, deps) {
    const user = item.value as UserRecord;
    // Invited users have no identity yet: the API refuses them as it refuses every user of the hospital.
    if (user.status === 'INVITED') return { outcome: 'SKIPPED' };
    await deps.identity.disable(user.id);
    await deps.identity.signOut(user.id);
    return { outcome: 'SUCCEEDED' };
  },
  async finish(job, deps) {
    const hospital = await deps.directory.getHospital(job.hospitalId);
    if (!hospital || statusOf(hospital) !== 'DEACTIVATED') return;
    const clientsSuspended = await suspendDicomWebClients(job.hospitalId, deps);
    await deps.audit.record({
      hospitalId: job.hospitalId,
      action: 'HOSPITAL_DEACTIVATED',
      ...jobActor(job),
      details: {
        before: { status: job.input.before },
        after: { status: 'DEACTIVATED' },
        acknowledgedImpact: job.input.acknowledgedImpact,
        jobId: job.id,
        identitiesDisabled: job.succeeded,
        clientsSuspended,
      },
    });
  },
};

/** Restore's job: the identities of users whose own status is ACTIVE enabled, then the DICOMweb clients resumed. */
export const hospitalRestoreJob: JobKindHandler<OrganisationDeps & JobRunnerDeps> = {
  chunk: userWalk('ACTIVE'),
  async run(_job, item, deps) {
    const user = item.value as UserRecord;
    if (user.status !== 'ACTIVE') return { outcome: 'SKIPPED' };
    await deps.identity.enable(user.id);
    return { outcome: 'SUCCEEDED' };
  },
  async finish(job, deps) {
    const hospital = await deps.directory.getHospital(job.hospitalId);
    if (!hospital || statusOf(hospital) !== 'ACTIVE') return;
    const clientsResumed = await resumeDicomWebClients(job.hospitalId, deps);
    await deps.audit.record({
      hospitalId: job.hospitalId,
      action: 'HOSPITAL_RESTORED',
      ...jobActor(job),
      details: {
        before: { status: job.input.before },
        after: { status: 'ACTIVE' },
        jobId: job.id,
        identitiesEnabled: job.succeeded,
        clientsResumed,
      },
    });
  },
};

/** Figures and sidebar badges of /hospital-admin: the hospital item's counters (docs/domain.md#counters). */
export async function hospitalAdminOverview(
  caller: Caller,
  deps: Pick<OrganisationDeps, 'directory'>,
): Promise<HospitalAdminOverview> {
  requireHospitalAdmin(caller);
  const hospital = await loadHospital(deps, caller.hospitalId);
  const n = (v: number | undefined) => Math.max(0, v ?? 0);
  return {
    hospital: { id: hospital.id, name: hospital.name, subscriptionPlan: planOf(hospital) },
    teamsCount: n(hospital.teamCount),
    departmentsCount: n(hospital.departmentCount),
    membersCount: n(hospital.userCount),
    pendingInvitations: n(hospital.pendingInvitationCount),
    datasetsCount: n(hospital.datasetCount),
    storageUsedBytes: n(hospital.storageUsedBytes),
  };
}
