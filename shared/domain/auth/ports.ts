import type { PermissionGrant, Role } from '#shared/auth/roles.ts';

export const USER_STATUSES = ['ACTIVE', 'INVITED', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

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
  department?: string;
  specialization?: string;
  permissions: PermissionGrant[];
  lastLogin?: string;
  createdAt: string;
};

export type HospitalRecord = {
  id: string;
  slug: string;
  name: string;
  city?: string;
  state?: string;
  email?: string;
  phone?: string;
  addressLine1?: string;
  subscriptionPlan?: string;
  createdAt: string;
  updatedAt: string;
};

export type DepartmentRecord = { id: string; hospitalId: string; name: string; description: string; createdAt: string };
export type TeamRecord = {
  id: string;
  hospitalId: string;
  name: string;
  departmentId: string;
  description: string;
  createdAt: string;
};

export type Directory = {
  getUser(hospitalId: string, userId: string): Promise<UserRecord | undefined>;
  getHospital(hospitalId: string): Promise<HospitalRecord | undefined>;
  getTeam(hospitalId: string, teamId: string): Promise<TeamRecord | undefined>;
  /** Every user of the hospital (one partition read, paged by the adapter). */
  listUsers(hospitalId: string): Promise<UserRecord[]>;
  putHospital(hospital: HospitalRecord): Promise<void>;
  putDepartment(department: DepartmentRecord): Promise<void>;
  putTeam(team: TeamRecord): Promise<void>;
  /** Creates or replaces the user item, keeping `createdAt`/`lastLogin` of an existing one. */
  putUser(user: UserRecord): Promise<void>;
  recordLogin(hospitalId: string, userId: string, at: string): Promise<void>;
};
