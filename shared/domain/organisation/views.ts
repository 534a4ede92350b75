import type { Role } from '#shared/vocabulary/roles.ts';
import type { DepartmentRecord, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import {
  DEFAULT_TEAM_SETTINGS,
  PLAN_PRICE_PER_USER,
  type Department,
  type Hospital,
  type SubscriptionPlan,
  type Team,
  type TeamMember,
  type TeamRole,
  type User,
} from '#shared/schemas/api/organisation.ts';

export const planOf = (h: HospitalRecord): SubscriptionPlan => (h.subscriptionPlan as SubscriptionPlan) ?? 'TRIAL';
export const statusOf = (h: HospitalRecord) => h.status ?? 'ACTIVE';

/** Monthly revenue of one hospital: its plan's price per user x its billed users (docs/domain.md#plans). */
export const revenueOf = (h: HospitalRecord) => PLAN_PRICE_PER_USER[planOf(h)] * (h.userCount ?? 0);

export function toHospital(h: HospitalRecord): Hospital {
  return {
    id: h.id,
    slug: h.slug,
    name: h.name,
    email: h.email ?? null,
    phone: h.phone ?? null,
    addressLine1: h.addressLine1 ?? null,
    addressLine2: h.addressLine2 ?? null,
    city: h.city ?? null,
    state: h.state ?? null,
    country: h.country ?? null,
    timezone: h.timezone ?? null,
    website: h.website ?? null,
    description: h.description ?? null,
    specialization: h.specialization ?? [],
    subscriptionPlan: planOf(h),
    status: statusOf(h),
    userCount: Math.max(0, h.userCount ?? 0),
    datasetCount: Math.max(0, h.datasetCount ?? 0),
    monthlyRevenue: Math.max(0, revenueOf(h)),
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
    deactivatedAt: h.deactivatedAt ?? null,
  };
}

export function toDepartment(d: DepartmentRecord): Department {
  return {
    id: d.id,
    hospitalId: d.hospitalId,
    name: d.name,
    description: d.description ?? '',
    teamCount: Math.max(0, d.teamCount ?? 0),
    memberCount: Math.max(0, d.memberCount ?? 0),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt ?? d.createdAt,
  };
}

export function toTeam(t: TeamRecord, departmentName: string, lead: UserRecord | undefined): Team {
  return {
    id: t.id,
    hospitalId: t.hospitalId,
    name: t.name,
    departmentId: t.departmentId,
    departmentName,
    leadUserId: t.leadUserId ?? null,
    leadName: lead ? `${lead.firstName} ${lead.lastName}`.trim() : null,
    description: t.description ?? '',
    dataPolicy: t.dataPolicy ?? 'shared',
    maxMembers: t.maxMembers ?? 15,
    priority: t.priority ?? 'medium',
    tags: t.tags ?? [],
    settings: { ...DEFAULT_TEAM_SETTINGS, ...t.settings },
    isActive: t.isActive !== false,
    memberCount: Math.max(0, t.memberCount ?? 0),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt ?? t.createdAt,
  };
}

export function toUser(u: UserRecord, teamName: string | null, departmentName: string | null): User {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phone: u.phone ?? null,
    role: u.role,
    status: u.status,
    hospitalId: u.hospitalId,
    teamId: u.teamId ?? null,
    teamName,
    departmentId: u.departmentId ?? null,
    department: departmentName ?? u.department ?? null,
    specialization: u.specialization ?? null,
    permissions: u.permissions,
    lastLogin: u.lastLogin ?? null,
    createdAt: u.createdAt,
  };
}

/** A user role as the team sees it (docs/domain.md#teams: LEAD, MEMBER, GUEST). */
export function teamRoleOf(role: Role): TeamRole {
  if (role === 'TEAM_LEAD' || role === 'HOSPITAL_ADMIN') return 'LEAD';
  if (role === 'GUEST') return 'GUEST';
  return 'MEMBER';
}

export function toTeamMember(u: UserRecord, departmentName: string | null): TeamMember {
  return {
    id: u.id,
    role: teamRoleOf(u.role),
    status: u.status,
    permissions: u.permissions,
    lastActive: u.lastLogin ?? null,
    user: {
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      department: departmentName ?? u.department ?? null,
      specialization: u.specialization ?? null,
    },
  };
}
