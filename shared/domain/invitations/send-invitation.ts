import type { PermissionGrant, Role } from '#shared/vocabulary/roles.ts';
import { isLeadOrAdmin, requireCan, requireMayGive, type Caller } from '#shared/domain/auth/caller.ts';
import type { DepartmentRecord, TeamRecord } from '#shared/domain/auth/ports.ts';
import { AccessDeniedError, EmailTakenError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import {
  INVITABLE_ROLE_INFO,
  INVITATION_EXPIRY_DAYS,
  validateBulkRows,
  type BulkInvitationRequest,
  type Invitation,
  type InvitableRole,
  type SingleInvitation,
  type TeamInvitation,
} from '#shared/schemas/api/invitations.ts';
import { DEFAULT_TEAM_SETTINGS, TEAM_ROLE_TO_USER_ROLE, type TeamRole } from '#shared/schemas/api/organisation.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';
import { startJob, type JobKindHandler, type JobRunnerDeps, type JobStartDeps } from '#shared/domain/jobs/runner.ts';
import { toJob } from '#shared/domain/jobs/view.ts';
import { joiningPermissions } from '#shared/domain/organisation/member-defaults.ts';
import { acceptLink, type InvitationDeps } from './deps.ts';
import { invitationEmail } from './email.ts';
import type { InvitationRecord } from './ports.ts';
import { expiryFrom, isLapsed, toInvitation } from './view.ts';

const USER_ROLE_TO_TEAM_ROLE: Partial<Record<Role, TeamRole>> = {
  TEAM_LEAD: 'LEAD',
  TEAM_MEMBER: 'MEMBER',
  GUEST: 'GUEST',
};

/** What one invitation is for; the core checks the e-mail, writes it, sends the e-mail and audits it. */
export type InvitationRequest = {
  hospitalId: string;
  email: string;
  fullName: string | null;
  role: Role;
  teamRole?: TeamRole | null;
  permissions?: PermissionGrant[];
  department: DepartmentRecord | null;
  team: TeamRecord | null;
  specialization?: string | null;
  message?: string | null;
  expiresInDays?: number;
  invitedBy: { userId: string; name: string };
  /** The invitation's id when the caller must find it again (a bulk job's row, docs/jobs.md); a new one otherwise. */
  id?: string;
};

const nameOf = (caller: Caller) => `${caller.firstName} ${caller.lastName}`.trim() || caller.email;

/**
 * Refuses an e-mail that already belongs to a user (any hospital: an e-mail signs in to one account), unless it is
 * this hospital's INVITED user record, which acceptance activates; and one with a pending invitation of the hospital.
 * A pending invitation that has lapsed is settled as EXPIRED first and does not block.
 */
export async function assertEmailFree(hospitalId: string, email: string, deps: InvitationDeps): Promise<void> {
  const user = await deps.invitationDirectory.findUserByEmail(email);
  if (user && !(user.hospitalId === hospitalId && user.status === 'INVITED'))
    throw new EmailTakenError('EMAIL_ALREADY_REGISTERED');
  const pendingId = await deps.invitations.pendingIdForEmail(hospitalId, email.toLowerCase());
  if (!pendingId) return;
  const pending = await deps.invitations.get(hospitalId, pendingId);
  const now = deps.clock.now();
  if (pending && isLapsed(pending, now)) {
    await deps.invitations.leavePending(pending, 'EXPIRED', { updatedAt: now });
    return;
  }
  throw new EmailTakenError('EMAIL_ALREADY_INVITED');
}

/**
 * Sends the invitation's e-mail with a fresh link; the caller stores the token's hash. Returns when it was sent, or
 * null when delivery failed (the invitation stays pending, not sent, and Resend sends it).
 */
export async function deliver(
  invitation: InvitationRecord,
  token: string,
  deps: InvitationDeps,
): Promise<string | null> {
  const hospital = await deps.directory.getHospital(invitation.hospitalId);
  try {
    await deps.mailer.send(
      invitationEmail({
        to: invitation.email,
        recipientName: invitation.fullName,
        hospitalName: hospital?.name ?? 'Imaging Workspace',
        invitedByName: invitation.invitedByName,
        role: invitation.role,
        teamName: invitation.teamName,
        message: invitation.message,
        link: acceptLink(deps.siteOrigin, token),
        expiresAt: invitation.expiresAt,
        refs: { hospitalId: invitation.hospitalId, invitationId: invitation.id },
      }),
    );
    return deps.clock.now();
  } catch {
    return null;
  }
}

/** The one way an invitation is made (single, bulk, team, and a new hospital's first admin). */
export async function issueInvitation(request: InvitationRequest, deps: InvitationDeps): Promise<Invitation> {
  const email = request.email.trim();
  await assertEmailFree(request.hospitalId, email, deps);
  const now = deps.clock.now();
  const days = request.expiresInDays ?? INVITATION_EXPIRY_DAYS;
  const token = deps.tokens.newToken();
  const record: InvitationRecord = {
    id: request.id ?? deps.ids.newId(),
    hospitalId: request.hospitalId,
    email,
    emailKey: email.toLowerCase(),
    fullName: request.fullName,
    role: request.role,
    teamRole: request.teamRole ?? (request.team ? (USER_ROLE_TO_TEAM_ROLE[request.role] ?? null) : null),
    // Named permissions, or the ones the invitee would get joining now (a team's defaults for a member).
    permissions: request.permissions ?? joiningPermissions(request.role, request.team),
    ...(request.permissions === undefined && request.team && request.role === 'TEAM_MEMBER'
      ? { permissionsFromTeam: true }
      : {}),
    departmentId: request.department?.id ?? null,
    departmentName: request.department?.name ?? null,
    teamId: request.team?.id ?? null,
    teamName: request.team?.name ?? null,
    specialization: request.specialization ?? null,
    message: request.message ?? null,
    status: 'PENDING',
    tokenHash: deps.tokens.hash(token),
    createdAt: now,
    updatedAt: now,
    sentAt: null,
    expiresAt: expiryFrom(now, days),
    expiresInDays: days,
    invitedByUserId: request.invitedBy.userId,
    invitedByName: request.invitedBy.name,
    acceptedAt: null,
    acceptedUserId: null,
  };
  await deps.invitations.create(record);
  const sentAt = await deliver(record, token, deps);
  const stored = sentAt ? await deps.invitations.updatePending(record, { sentAt, updatedAt: sentAt }) : record;
  await deps.audit.record({
    hospitalId: record.hospitalId,
    action: 'INVITATION_SENT',
    actorUserId: request.invitedBy.userId,
    actorName: request.invitedBy.name,
    details: {
      invitationId: record.id,
      role: record.role,
      teamId: record.teamId,
      departmentId: record.departmentId,
      expiresAt: record.expiresAt,
      delivered: sentAt !== null,
    },
  });
  return toInvitation(stored, deps.clock.now());
}

/** The Invitation Center sends for the hospital: its admin, holding SEND_INVITATIONS (`*` by default). */
function assertHospitalAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  requireCan(caller, 'SEND_INVITATIONS');
}

type Organisation = { departments: DepartmentRecord[]; teams: (TeamRecord & { isActive?: boolean })[] };

async function organisationOf(hospitalId: string, deps: InvitationDeps): Promise<Organisation> {
  const [departments, teams] = await Promise.all([
    deps.invitationDirectory.listDepartments(hospitalId),
    deps.invitationDirectory.listTeams(hospitalId),
  ]);
  return { departments, teams: teams.filter((t) => t.isActive !== false) };
}

const TEAM_NOT_IN_DEPARTMENT = 'The team must belong to the department';

/** Department and team of a form: by id (the forms) or by name, case-insensitive (a CSV). */
function placement(
  org: Organisation,
  department: string | undefined,
  team: string | undefined,
): { department: DepartmentRecord | null; team: TeamRecord | null; errors: { path: string; message: string }[] } {
  const match = (value: string) => (x: { id: string; name: string }) =>
    x.id === value || x.name.toLowerCase() === value.toLowerCase();
  const errors: { path: string; message: string }[] = [];
  const d = department ? (org.departments.find(match(department)) ?? null) : null;
  if (department && !d) errors.push({ path: 'department', message: 'Department not found' });
  const t = team ? (org.teams.find(match(team)) ?? null) : null;
  if (team && !t) errors.push({ path: 'team', message: 'Team not found' });
  if (t && (!d || t.departmentId !== d.id)) errors.push({ path: 'team', message: TEAM_NOT_IN_DEPARTMENT });
  return { department: d, team: t, errors };
}

/** Single Invitation (hospital admin): the form of docs/screens.md#invitation-center, checked again here, expiry 7 days. */
export async function inviteOne(input: SingleInvitation, caller: Caller, deps: InvitationDeps): Promise<Invitation> {
  assertHospitalAdmin(caller);
  const org = await organisationOf(caller.hospitalId, deps);
  const placed = placement(org, input.departmentId, input.teamId);
  if (placed.errors.length > 0)
    throw new ValidationError(
      'VALIDATION_FAILED',
      {},
      placed.errors.map((e) => ({ path: e.path === 'team' ? 'teamId' : 'departmentId', message: e.message })),
    );
  return issueInvitation(
    {
      hospitalId: caller.hospitalId,
      email: input.email,
      fullName: input.fullName,
      role: INVITABLE_ROLE_INFO[input.role].role,
      department: placed.department,
      team: placed.team,
      specialization: input.specialization ?? null,
      message: input.message || null,
      invitedBy: { userId: caller.userId, name: nameOf(caller) },
    },
    deps,
  );
}

/** A bulk row as its job keeps it: checked, with its department and team resolved to ids. */
export type BulkJobRow = {
  email: string;
  fullName: string;
  role: Role;
  departmentId: string | null;
  teamId: string | null;
  specialization: string | null;
};

/** What a bulk invitation job carries (docs/jobs.md): its rows and the departments and teams they name, once each. */
export type BulkJobInput = {
  rows: BulkJobRow[];
  departments: Record<string, DepartmentRecord>;
  teams: Record<string, TeamRecord>;
};

/**
 * Bulk Invitations: every row checked again with the rules of docs/domain.md#invitations (Basic or Strict) and against
 * the hospital's departments and teams; any problem refuses the whole batch (400, per-row details) and nothing is sent.
 * A valid batch becomes a job (docs/jobs.md), answered 202 at once: the job invites row by row, and a row whose e-mail
 * is taken when it is its turn is refused with the catalogue's reason in its result.
 */
export async function inviteMany(
  input: BulkInvitationRequest,
  caller: Caller,
  deps: InvitationDeps & Pick<JobStartDeps, 'jobs' | 'jobStarter'>,
): Promise<JobAccepted> {
  assertHospitalAdmin(caller);
  const org = await organisationOf(caller.hospitalId, deps);
  const ruleErrors = validateBulkRows(input.invitations, input.mode);
  const placed = input.invitations.map((row) => placement(org, row.department || undefined, row.team || undefined));
  const details = input.invitations.flatMap((_, i) => [
    ...ruleErrors[i]!.map((message) => ({ path: `invitations.${i}`, message })),
    ...placed[i]!.errors.map((e) => ({ path: `invitations.${i}.${e.path}`, message: e.message })),
  ]);
  if (details.length > 0) throw new ValidationError('VALIDATION_FAILED', {}, details);
  const jobInput: BulkJobInput = { rows: [], departments: {}, teams: {} };
  for (const [i, row] of input.invitations.entries()) {
    const { department, team } = placed[i]!;
    if (department) jobInput.departments[department.id] = department;
    if (team) jobInput.teams[team.id] = team;
    jobInput.rows.push({
      email: row.email.trim(),
      fullName: row.fullName.trim(),
      role: INVITABLE_ROLE_INFO[row.role.trim().toLowerCase() as InvitableRole].role,
      departmentId: department?.id ?? null,
      teamId: team?.id ?? null,
      specialization: row.specialization || null,
    });
  }
  const job = await startJob(
    {
      kind: 'BULK_INVITATIONS',
      ownerHospitalId: caller.hospitalId,
      hospitalId: caller.hospitalId,
      input: jobInput,
      total: jobInput.rows.length,
      createdBy: { userId: caller.userId, name: nameOf(caller) },
    },
    deps,
  );
  return { jobId: job.id, job: toJob(job) };
}

/** Rows one chunk of a bulk job invites (each row: a few reads, three writes and an e-mail). */
export const BULK_JOB_CHUNK_ROWS = 25;

/** The id of a bulk row's invitation: the job's id and the row, so a retried chunk finds what it made. */
export const bulkInvitationId = (jobId: string, seq: number) => `${jobId}.${seq}`;

/**
 * The bulk invitation job's kind (docs/jobs.md): a chunk is the next BULK_JOB_CHUNK_ROWS rows; a row is one
 * invitation with an id of its own, so a row that already made its invitation (a chunk run again) is not invited
 * twice.
 */
export const bulkInvitationJob: JobKindHandler<InvitationDeps & JobRunnerDeps> = {
  // Every row appends to the hospital's one audit chain, whose appends go one after another (docs/domain.md#audit-trail):
  // more rows at once mostly lose races for its head (500 rows: 13 s at 4 at once, 48 s at 10, on the test harness).
  itemsAtOnce: 4,
  async chunk(job, cursor) {
    const { rows } = job.input as BulkJobInput;
    const from = cursor === null ? 0 : Number(cursor);
    const to = Math.min(rows.length, from + BULK_JOB_CHUNK_ROWS);
    return {
      items: rows.slice(from, to).map((row, i) => ({ seq: from + i + 1, subject: row.email, value: row })),
      next: to < rows.length ? String(to) : null,
      total: rows.length,
    };
  },
  async run(job, item, deps) {
    const input = job.input as BulkJobInput;
    const row = item.value as BulkJobRow;
    const id = bulkInvitationId(job.id, item.seq);
    if (await deps.invitations.get(job.hospitalId, id)) return { outcome: 'SUCCEEDED', ref: id };
    try {
      await issueInvitation(
        {
          id,
          hospitalId: job.hospitalId,
          email: row.email,
          fullName: row.fullName,
          role: row.role,
          department: row.departmentId ? (input.departments[row.departmentId] ?? null) : null,
          team: row.teamId ? (input.teams[row.teamId] ?? null) : null,
          specialization: row.specialization,
          invitedBy: job.createdBy,
        },
        deps,
      );
      return { outcome: 'SUCCEEDED', ref: id };
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      // Taken by this very row in a run cut off after its write: it is made.
      if (await deps.invitations.get(job.hospitalId, id)) return { outcome: 'SUCCEEDED', ref: id };
      return { outcome: 'REFUSED', code: error.code };
    }
  },
};

/**
 * The team a caller may manage invitations of: a hospital admin any team of the hospital, anyone else their own
 * (another team answers as if it did not exist), with SEND_INVITATIONS there (403 otherwise): a lead by default, a
 * member or guest when granted it and only while the team's "Members may invite" is on
 * (docs/roles-and-permissions.md#permission-checks).
 */
export async function manageableTeam(caller: Caller, teamId: string, deps: InvitationDeps): Promise<TeamRecord> {
  const visible = caller.role === 'HOSPITAL_ADMIN' || (caller.teamId !== null && caller.teamId === teamId);
  if (!visible) throw new NotFoundError('NOT_FOUND');
  const team = (await deps.directory.getTeam(caller.hospitalId, teamId)) as
    (TeamRecord & { isActive?: boolean }) | undefined;
  if (!team || team.isActive === false) throw new NotFoundError('NOT_FOUND');
  requireCan(caller, 'SEND_INVITATIONS', { teamId });
  if (!isLeadOrAdmin(caller) && !membersMayInvite(team)) throw new AccessDeniedError();
  return team;
}

/** The team's "Members may invite" switch; a team stored without settings has the defaults (off). */
function membersMayInvite(team: TeamRecord): boolean {
  return team.settings?.allowMemberInvitations ?? DEFAULT_TEAM_SETTINGS.allowMemberInvitations;
}

/** "Invite Team Member": team role, permissions and an expiry of 1 to 30 days. */
export async function inviteToTeam(
  teamId: string,
  input: TeamInvitation,
  caller: Caller,
  deps: InvitationDeps,
): Promise<Invitation> {
  const team = await manageableTeam(caller, teamId, deps);
  const role = TEAM_ROLE_TO_USER_ROLE[input.role];
  const permissions = input.permissions ? [...new Set(input.permissions)] : undefined;
  // A member or guest invites members and guests only, with permissions they hold themselves (those named, or the
  // ones the invitee would be given: the team's defaults for a member).
  requireMayGive(caller, { role, permissions: permissions ?? joiningPermissions(role, team) });
  const departments = await deps.invitationDirectory.listDepartments(caller.hospitalId);
  return issueInvitation(
    {
      hospitalId: caller.hospitalId,
      email: input.email,
      fullName: input.name ?? null,
      role,
      teamRole: input.role,
      permissions,
      department: departments.find((d) => d.id === team.departmentId) ?? null,
      team,
      message: input.message || null,
      expiresInDays: input.expiresInDays,
      invitedBy: { userId: caller.userId, name: nameOf(caller) },
    },
    deps,
  );
}
