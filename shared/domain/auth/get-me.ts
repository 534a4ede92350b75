import type { MeResponse } from '#shared/schemas/api/auth.ts';
import type { Caller } from './caller.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { moveUserCounters } from '#shared/domain/dashboards/counters.ts';
import type { Directory } from './ports.ts';

/**
 * lastLogin is refreshed at most once a day, from /api/me, which the site calls when a session starts. Password
 * sign-ins are audited one by one by the user pool's post-authentication trigger (docs/domain.md#failed-sign-ins);
 * a sign-in through the hospital's identity provider is audited here, at most once a day.
 */
const LOGIN_REFRESH_MS = 24 * 60 * 60 * 1000;

/** The caller's own user record (never the token's copy of it), their hospital and team. */
export async function getMe(
  caller: Caller,
  deps: {
    directory: Directory;
    audit: AuditLog;
    clock: Clock;
    organisation?: Pick<OrganisationStore, 'updateUser' | 'add'>;
  },
): Promise<MeResponse> {
  const [user, hospital, team] = await Promise.all([
    deps.directory.getUser(caller.hospitalId, caller.userId),
    deps.directory.getHospital(caller.hospitalId),
    caller.teamId ? deps.directory.getTeam(caller.hospitalId, caller.teamId) : Promise.resolve(undefined),
  ]);
  if (!user) throw new NotFoundError('USER_NOT_FOUND');
  if (!hospital) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  const now = deps.clock.now();
  // A session signed in with a second factor shows the user is enrolled: recorded once, for the compliance center.
  // The hospital's count of ACTIVE users with two-factor moves with it (docs/domain.md#counters).
  if (caller.secondFactor && !user.twoFactorSince && deps.organisation) {
    const updated = await deps.organisation.updateUser(caller.hospitalId, caller.userId, { twoFactorSince: now });
    await moveUserCounters(deps.organisation, caller.hospitalId, user, updated);
  }
  let lastLogin = user.lastLogin ?? null;
  if (!lastLogin || Date.parse(now) - Date.parse(lastLogin) > LOGIN_REFRESH_MS) {
    await deps.directory.recordLogin(caller.hospitalId, caller.userId, now);
    if (caller.federated)
      await deps.audit.record({
        hospitalId: caller.hospitalId,
        action: 'USER_SIGNED_IN',
        actorUserId: caller.userId,
        actorName: `${user.firstName} ${user.lastName}`,
        details: { role: user.role, method: 'federated' },
      });
    lastLogin = now;
  }
  return {
    user: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      status: user.status,
      hospitalId: user.hospitalId,
      teamId: user.teamId,
      departmentId: user.departmentId ?? null,
      department: user.department ?? null,
      specialization: user.specialization ?? null,
      permissions: user.permissions,
      lastLogin,
    },
    hospital: { id: hospital.id, name: hospital.name },
    team: team ? { id: team.id, name: team.name } : null,
  };
}
