import type { Role } from '#shared/vocabulary/roles.ts';
import type {
  DepartmentRecord,
  Directory,
  HospitalCounters,
  HospitalRecord,
  TeamRecord,
  UserRecord,
} from '#shared/domain/auth/ports.ts';
import type { UserStatus } from '#shared/vocabulary/users.ts';
import type { AuditLog, Clock, IdGenerator, PageTokens } from '#shared/domain/ports.ts';
import type { IntegrationStore, MachineClients } from '#shared/domain/integrations/ports.ts';
import type { HospitalStatus, SubscriptionPlan } from '#shared/schemas/api/organisation.ts';

/** A page read from one index partition: at most `limit` items, and where to go on. */
export type StorePage<T> = { items: T[]; lastKey?: Record<string, string> };

export type HospitalListQuery = {
  /** Lower-cased prefix of the name or the city. */
  search?: string;
  plan?: SubscriptionPlan;
  status?: HospitalStatus;
  limit: number;
  startKey?: Record<string, string>;
};

export type TeamListQuery = {
  hospitalId: string;
  departmentId?: string;
  includeArchived: boolean;
  limit: number;
  startKey?: Record<string, string>;
};

export type UserListQuery = {
  hospitalId: string;
  /** Lower-cased prefix of the first name, last name, full name or e-mail. */
  search?: string;
  role?: Role;
  departmentId?: string;
  teamId?: string;
  status?: UserStatus;
  limit: number;
  startKey?: Record<string, string>;
};

/** Counters over every hospital: all hospitals and users, and per plan those of active hospitals (docs/domain.md#counters). */
export type HospitalSummaryCounters = {
  hospitals: number;
  users: number;
  patients: number;
  storageUsedBytes: number;
  activeHospitalsByPlan: Partial<Record<SubscriptionPlan, number>>;
  activeUsersByPlan: Partial<Record<SubscriptionPlan, number>>;
};

export type CounterTarget =
  { kind: 'hospital' } | { kind: 'department'; departmentId: string } | { kind: 'team'; teamId: string };

export type CounterName =
  keyof HospitalCounters | 'memberCount' | 'teamCount' | 'datasetCount' | 'storageUsedBytes' | 'pendingInvitationCount';

/** Where a dataset's report counts live (docs/domain.md#report-counters): a scope ('hospital' or a team id) and a month. */
export type ReportCountTarget = { scope: string; period: string };
/** One stored report item: its counts, absent ones 0, and the names kept beside them. */
export type ReportCountItem = ReportCountTarget & { counts: Record<string, number>; names: Record<string, string> };

/** UpdateItem ADD on an organisation item's counters: where they change, in the same code path. */
export type OrganisationCounters = {
  add(hospitalId: string, target: CounterTarget, deltas: Partial<Record<CounterName, number>>): Promise<void>;
  /** ADD on the summary item over every hospital (Hospital Management cards). */
  addSummary(deltas: {
    hospitals?: number;
    users?: number;
    /** Distinct patients and stored bytes over every hospital (the super admin's dashboard). */
    patients?: number;
    storageUsedBytes?: number;
    plan?: { plan: SubscriptionPlan; hospitals?: number; users?: number };
  }): Promise<void>;
  /**
   * Marks a patient alias as seen in the hospital (scope 'hospital') or a team (scope = team id): true the first
   * time only (a conditional put), so a counter of distinct patients moves once per patient.
   */
  markPatient(hospitalId: string, scope: string, patientAlias: string): Promise<boolean>;
  /**
   * ADD on a report item (docs/domain.md#report-counters): `period` is a month (yyyy-mm), the scope 'hospital' or a
   * team id; `names` are SET beside the counts. The item is created on first use.
   */
  addReportCounts(
    hospitalId: string,
    target: ReportCountTarget,
    deltas: Record<string, number>,
    names?: Record<string, string>,
  ): Promise<void>;
  /** ADD on the day's compute meter of the hospital (scope 'hospital') or a team (scope = team id). */
  addUsage(hospitalId: string, scope: string, day: string, deltas: UsageDeltas): Promise<void>;
};

/**
 * One day's compute meter (docs/domain.md#usage-and-billing), and on the hospital's own day item its sign-in attempts
 * and successes (docs/domain.md#failed-sign-ins).
 */
export type UsageDeltas = {
  runs?: number;
  computeSeconds?: number;
  gbSeconds?: number;
  signInAttempts?: number;
  signIns?: number;
  /** Net bytes the scope's datasets added to storage that day (negative when more was deleted). */
  storageBytesAdded?: number;
};
export type UsageDay = {
  day: string;
  runs: number;
  computeSeconds: number;
  gbSeconds: number;
  signInAttempts: number;
  signIns: number;
  storageBytesAdded: number;
};

/**
 * Hospitals, departments, teams and users beyond the Directory's single-item reads: lists through indexes (never a
 * scan), conditional creates, field updates that move the index attributes with the fields.
 */
export type OrganisationStore = OrganisationCounters & {
  /**
   * The report items of a scope from month `from` to month `to` (yyyy-mm, inclusive), oldest first; a month without
   * an item is absent.
   */
  listReportCounts(hospitalId: string, scope: string, from: string, to: string): Promise<ReportCountItem[]>;
  /** Replaces a report item with a recount (SET, not ADD: writing it twice leaves the same). */
  putReportCounts(hospitalId: string, item: ReportCountItem): Promise<void>;
  /** Removes a report item no live dataset counts. */
  deleteReportCounts(hospitalId: string, target: ReportCountTarget): Promise<void>;
  listHospitals(query: HospitalListQuery): Promise<StorePage<HospitalRecord>>;
  hospitalSummary(): Promise<HospitalSummaryCounters>;
  /** The daily compute meters of a scope from `fromDay` to `toDay` (yyyy-mm-dd, inclusive), oldest first. */
  listUsage(hospitalId: string, scope: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /** Creates the hospital; ConflictError when the id or slug is taken. */
  createHospital(hospital: HospitalRecord): Promise<void>;
  updateHospital(hospitalId: string, fields: Partial<HospitalRecord>): Promise<HospitalRecord>;

  /**
   * A short lease on the hospital's admin changes (demoting or disabling a hospital admin), so two of them cannot
   * both pass the last-admin check: false while another holds it (until its lease ends).
   */
  lockAdminChanges(hospitalId: string, now: string, until: string): Promise<boolean>;
  unlockAdminChanges(hospitalId: string): Promise<void>;

  listDepartments(hospitalId: string): Promise<DepartmentRecord[]>;
  getDepartment(hospitalId: string, departmentId: string): Promise<DepartmentRecord | undefined>;
  createDepartment(department: DepartmentRecord): Promise<void>;
  updateDepartment(
    hospitalId: string,
    departmentId: string,
    fields: Partial<DepartmentRecord>,
  ): Promise<DepartmentRecord>;
  /** Deletes only while its teamCount and memberCount are 0; ConflictError otherwise. */
  deleteDepartment(hospitalId: string, departmentId: string): Promise<void>;

  listTeams(query: TeamListQuery): Promise<StorePage<TeamRecord>>;
  createTeam(team: TeamRecord): Promise<void>;
  updateTeam(hospitalId: string, teamId: string, fields: Partial<TeamRecord>): Promise<TeamRecord>;
  /**
   * Takes a seat in the team: ADD 1 to its memberCount only while it is active and below its maxMembers (one
   * conditional write, so two moves cannot both take the last seat). False when full or archived.
   */
  claimTeamSeat(hospitalId: string, teamId: string): Promise<boolean>;
  /** How many of the team's members have this status (bounded by the team's maxMembers). */
  countTeamMembers(hospitalId: string, teamId: string, status?: UserStatus): Promise<number>;

  listUsers(query: UserListQuery): Promise<StorePage<UserRecord>>;
  /** The user with this e-mail in any hospital (case-insensitive), if any. */
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  updateUser(hospitalId: string, userId: string, fields: Partial<UserRecord>): Promise<UserRecord>;
};

/**
 * The identity provider's administration (Cognito user pool): the group is the role, a disabled identity cannot sign
 * in, a global sign-out revokes refresh tokens. `username` is the user's id (the identity's sub).
 */
export type IdentityAdmin = {
  changeGroup(username: string, from: Role, to: Role): Promise<void>;
  disable(username: string): Promise<void>;
  enable(username: string): Promise<void>;
  signOut(username: string): Promise<void>;
  /** Turns the identity's authenticator-app second factor off (an admin reset); it enrols again at its next sign-in. */
  resetMfa(username: string): Promise<void>;
};

/** What the organisation core reaches. */
export type OrganisationDeps = {
  directory: Directory;
  organisation: OrganisationStore;
  identity: IdentityAdmin;
  /** A hospital's integrations and their app clients, which follow its deactivation and restore. */
  integrations: IntegrationStore;
  machineClients: MachineClients;
  audit: AuditLog;
  pageTokens: PageTokens;
  clock: Clock;
  ids: IdGenerator;
};
