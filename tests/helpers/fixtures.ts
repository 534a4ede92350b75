import type { Job } from '#shared/schemas/api/jobs.ts';
import type { Invitation } from '#shared/schemas/api/invitations.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';

/** A valid hospital profile (settings) of the Northside test hospital. */
export const NORTHSIDE_PROFILE = {
  name: 'Northside General',
  email: 'contact@northside.test',
  phone: '+1 312 555 0100',
  address: '100 North Lake Shore Drive',
  billingContact: 'billing@northside.test',
};

/** The demo Northside hospital's profile as the twin's seed stores it, for tests that save its settings again. */
export const NORTHSIDE_DEMO_PROFILE = {
  ...NORTHSIDE_PROFILE,
  email: 'contact@northside.demo.local',
  billingContact: 'billing@northside.demo.local',
};

/** The body of Add Hospital for a new clinic with its first admin; `fields` change any of it. */
export function newHospitalBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Riverside Clinic',
    email: 'contact@riverside.test',
    phone: '3125550100',
    addressLine1: '1 River Road',
    city: 'Springfield',
    state: 'IL',
    subscriptionPlan: 'BASIC',
    adminFirstName: 'Robin',
    adminLastName: 'Hale',
    adminEmail: 'robin@riverside.test',
    ...fields,
  };
}

/** An invitation as the API lists it: a sent, pending invitation of a team member; `fields` change any of it. */
export function invitationFixture(fields: Partial<Invitation> = {}): Invitation {
  return {
    id: 'i1',
    hospitalId: 'h1',
    email: 'ann@x.test',
    fullName: 'Ann Lee',
    role: 'TEAM_MEMBER',
    teamRole: null,
    permissions: ['VIEW_DATASETS'],
    departmentId: 'd1',
    department: 'Radiology',
    teamId: null,
    team: null,
    specialization: null,
    message: null,
    status: 'PENDING',
    listStatus: 'sent',
    createdAt: '2026-03-01T09:00:00.000Z',
    sentAt: '2026-03-01T09:00:00.000Z',
    expiresAt: '2026-03-08T09:00:00.000Z',
    expiresInDays: 7,
    invitedByName: 'Alex Morgan',
    acceptedAt: null,
    ...fields,
  };
}

/** `count` rows of a bulk invitation (docs/screens.md#bulk-invitations): guests with numbered e-mails at `domain`. */
export function bulkInvitationRows(count: number, domain: string, prefix = 'invitee') {
  return Array.from({ length: count }, (_, i) => ({
    fullName: `Invitee ${prefix} ${i + 1}`,
    email: `${prefix}-${i + 1}@${domain}`,
    role: 'guest',
    department: '',
    team: '',
  }));
}

/** A numbered ACTIVE member of a hospital, as the users table stores one (for seeding large hospitals). */
export function memberRecord(hospitalId: string, n: number): UserRecord {
  return {
    id: `${hospitalId}-member-${n}`,
    email: `member-${n}@${hospitalId}.test`,
    firstName: 'Member',
    lastName: `Number ${n}`,
    role: 'TEAM_MEMBER',
    status: 'ACTIVE',
    hospitalId,
    teamId: null,
    departmentId: null,
    permissions: [],
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A job as GET /api/jobs/{jobId} answers it, just queued (docs/jobs.md); `fields` change any of it. */
export function queuedJob(kind: Job['kind'], fields: Partial<Job> = {}): Job {
  return {
    id: 'job-1',
    kind,
    hospitalId: 'h1',
    status: 'QUEUED',
    total: null,
    processed: 0,
    succeeded: 0,
    failed: 0,
    createdAt: '2026-02-01T10:00:00.000Z',
    updatedAt: '2026-02-01T10:00:00.000Z',
    finishedAt: null,
    error: null,
    ...fields,
  };
}
