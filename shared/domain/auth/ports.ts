import type { PermissionGrant, Role } from '#shared/vocabulary/roles.ts';
import type { TeamSettings } from '#shared/schemas/api/organisation.ts';
import type { UserStatus } from '#shared/vocabulary/users.ts';
import type { ANONYMIZATION_OPTIONS } from '#shared/vocabulary/deidentification.ts';
import type { PatientShareStatus } from '#shared/schemas/api/shares.ts';

/** A user item: id = the Cognito sub. Role, team and permissions here are what the server trusts. */
export type UserRecord = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  status: UserStatus;
  hospitalId: string;
  teamId: string | null;
  /** The department (id) of the hospital; `department` keeps its name for display and for older items. */
  departmentId?: string | null;
  department?: string;
  specialization?: string;
  phone?: string;
  permissions: PermissionGrant[];
  lastLogin?: string;
  /** When the API first saw the user signed in with a second factor; cleared by a two-factor reset (docs/domain.md#oversight-figures). */
  twoFactorSince?: string;
  createdAt: string;
  updatedAt?: string;
};

/** Counters kept on organisation items with UpdateItem ADD where they change (docs/domain.md#counters); absent = 0. */
export type HospitalCounters = {
  userCount?: number;
  teamCount?: number;
  departmentCount?: number;
  datasetCount?: number;
  storageUsedBytes?: number;
  pendingInvitationCount?: number;
} & PipelineCounters &
  ComplianceCounters &
  OversightCounters;

/** The counter of the hospital's users stored in one status (docs/domain.md#counters). */
export type UserStatusCounter = `users_${UserStatus}`;
/** The counter of the hospital's patient shares stored in one status (docs/domain.md#counters). */
export type PatientShareStatusCounter = `patientShares_${PatientShareStatus}`;

/**
 * The compliance center's figures over the hospital's people and links, kept on the hospital item where a user or a
 * patient share is stored, changes status or is removed (docs/domain.md#counters): users per stored status, ACTIVE
 * users with two-factor, patient shares per stored status.
 */
export type OversightCounters = Partial<Record<UserStatusCounter | PatientShareStatusCounter, number>> & {
  twoFactorUserCount?: number;
};

/** The counter of live de-identified datasets that kept one de-identification option (docs/domain.md#counters). */
export type RetainedOptionCounter = `retained_${(typeof ANONYMIZATION_OPTIONS)[number]}`;

/**
 * The compliance center's figures over the hospital's live datasets, kept on the hospital item as datasets are
 * de-identified, their held series released, and datasets moved to the recycle bin or restored (docs/domain.md#counters).
 */
export type ComplianceCounters = {
  deidentifiedCount?: number;
  /** De-identified datasets that kept none of the options (the basic profile alone). */
  basicProfileOnlyCount?: number;
  seriesHeldCount?: number;
  seriesReleasedCount?: number;
  datasetsWithHeldSeriesCount?: number;
} & Partial<Record<RetainedOptionCounter, number>>;

/**
 * Datasets per pipeline group and distinct patients, kept on the hospital and team items as statuses change
 * (docs/domain.md#counters): the dashboards read them instead of listing datasets.
 */
export type PipelineCounters = {
  queuedCount?: number;
  processingCount?: number;
  completedCount?: number;
  failedCount?: number;
  patientCount?: number;
};

export type HospitalRecord = HospitalCounters & {
  id: string;
  slug: string;
  name: string;
  city?: string;
  state?: string;
  email?: string;
  phone?: string;
  addressLine1?: string;
  addressLine2?: string;
  country?: string;
  timezone?: string;
  website?: string;
  description?: string;
  specialization?: string[];
  subscriptionPlan?: string;
  /** ACTIVE when absent (items written before deactivation existed). */
  status?: 'ACTIVE' | 'DEACTIVATED';
  deactivatedAt?: string;
  createdAt: string;
  updatedAt: string;
};

export type DepartmentRecord = {
  id: string;
  hospitalId: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt?: string;
  teamCount?: number;
  memberCount?: number;
};
export type TeamRecord = {
  id: string;
  hospitalId: string;
  name: string;
  departmentId: string;
  description: string;
  createdAt: string;
  updatedAt?: string;
  leadUserId?: string | null;
  dataPolicy?: 'shared' | 'individual';
  maxMembers?: number;
  priority?: 'high' | 'medium';
  tags?: string[];
  settings?: TeamSettings;
  /** Archived teams are false; absent = active. */
  isActive?: boolean;
  memberCount?: number;
  datasetCount?: number;
  storageUsedBytes?: number;
  pendingInvitationCount?: number;
} & PipelineCounters;

export type Directory = {
  getUser(hospitalId: string, userId: string): Promise<UserRecord | undefined>;
  getHospital(hospitalId: string): Promise<HospitalRecord | undefined>;
  getTeam(hospitalId: string, teamId: string): Promise<TeamRecord | undefined>;
  putHospital(hospital: HospitalRecord): Promise<void>;
  putDepartment(department: DepartmentRecord): Promise<void>;
  putTeam(team: TeamRecord): Promise<void>;
  /** Creates or replaces the user item, keeping `createdAt`/`lastLogin` of an existing one. */
  putUser(user: UserRecord): Promise<void>;
  recordLogin(hospitalId: string, userId: string, at: string): Promise<void>;
};
