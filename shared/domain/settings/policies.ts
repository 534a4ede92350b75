import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_SYSTEM_POLICY,
  type HospitalSettings,
  type Policy,
  type PutHospitalSettingsRequest,
  type SystemPolicyResponse,
  type TeamPolicyOverrides,
  type TeamPolicyResponse,
  withoutRetiredFields,
} from '#shared/schemas/api/policies.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { AccessDeniedError, NotFoundError, RuleError } from '#shared/domain/errors.ts';
import { assertNotLessRestrictive, resolvePolicy, TEAM_RULES } from './resolve.ts';
import type { SettingsStore } from './ports.ts';
import {
  activeHospitalAdmins,
  notifyWhoWants,
  type PreferredNotificationDeps,
} from '#shared/domain/notifications/preferences.ts';

/** What resolving a policy reads: the three levels. */
export type PolicyReader = Pick<SettingsStore, 'getSystemPolicy' | 'getHospitalPolicy' | 'getTeamPolicy'>;
export type PolicyDeps = { settings: PolicyReader };
type SettingsDeps = { settings: SettingsStore };
type WriteDeps = SettingsDeps & { audit: AuditLog; clock: Clock } & Omit<
    PreferredNotificationDeps,
    'settings' | 'clock'
  >;

/**
 * Tells the hospital's other ACTIVE admins who keep "Security events" on that a policy changed: a security alert, by
 * the channels they chose (docs/domain.md#security-alerts).
 */
async function notifyPolicyChange(caller: Caller, what: string, deps: WriteDeps): Promise<void> {
  const admins = await activeHospitalAdmins(caller.hospitalId, deps, caller.userId);
  await notifyWhoWants(
    caller.hospitalId,
    admins,
    'securityEvents',
    {
      type: 'POLICY_CHANGED',
      title: 'Policy changed',
      description: `${caller.firstName} ${caller.lastName} changed ${what}.`,
      href: '/hospital-admin/settings',
    },
    deps,
  );
}

const actorOf = (caller: Caller) => ({
  actorUserId: caller.userId,
  actorName: `${caller.firstName} ${caller.lastName}`,
});

export async function systemPolicy(deps: PolicyDeps): Promise<Policy> {
  const stored = (await deps.settings.getSystemPolicy())?.value;
  return stored ? withoutRetiredFields(stored) : DEFAULT_SYSTEM_POLICY;
}

/** The hospital's own policy as its admin set it (or the defaults), before clamping under the system maximums. */
export async function hospitalPolicy(hospitalId: string, deps: PolicyDeps): Promise<Policy> {
  const stored = (await deps.settings.getHospitalPolicy(hospitalId))?.value;
  return stored ? withoutRetiredFields(stored) : DEFAULT_HOSPITAL_POLICY;
}

/**
 * The policy in force for a hospital, or for one of its teams: the one entry point every check uses
 * (uploads, run slots, retention, shares), resolved by resolvePolicy.
 */
export async function policyFor(hospitalId: string, teamId: string | null, deps: PolicyDeps): Promise<Policy> {
  const [system, hospital, team] = await Promise.all([
    systemPolicy(deps),
    hospitalPolicy(hospitalId, deps),
    teamId ? deps.settings.getTeamPolicy(hospitalId, teamId) : Promise.resolve(undefined),
  ]);
  return resolvePolicy({ system, hospital, team: team?.value });
}

// --- System maximums (super admin) ---

export async function getSystemPolicy(caller: Caller, deps: PolicyDeps): Promise<SystemPolicyResponse> {
  if (caller.role !== 'SUPER_ADMIN' && caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  const stored = await deps.settings.getSystemPolicy();
  return stored
    ? {
        policy: withoutRetiredFields(stored.value),
        updatedAt: stored.updatedAt,
        updatedByUserId: stored.updatedByUserId,
      }
    : { policy: DEFAULT_SYSTEM_POLICY, updatedAt: null, updatedByUserId: null };
}

export async function setSystemPolicy(policy: Policy, caller: Caller, deps: WriteDeps): Promise<SystemPolicyResponse> {
  if (caller.role !== 'SUPER_ADMIN') throw new AccessDeniedError();
  const before = await systemPolicy(deps);
  const stored = { value: policy, updatedAt: deps.clock.now(), updatedByUserId: caller.userId };
  await deps.settings.putSystemPolicy(stored);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'SYSTEM_POLICY_CHANGED',
    ...actorOf(caller),
    details: { before, after: policy },
  });
  return { policy, updatedAt: stored.updatedAt, updatedByUserId: stored.updatedByUserId };
}

// --- Hospital settings (hospital admin): profile and policy ---

export async function getHospitalSettings(caller: Caller, deps: SettingsDeps): Promise<HospitalSettings> {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  const [profile, stored, system, storageUsedBytes] = await Promise.all([
    deps.settings.getHospitalProfile(caller.hospitalId),
    deps.settings.getHospitalPolicy(caller.hospitalId),
    systemPolicy(deps),
    deps.settings.storageUsedBytes(caller.hospitalId),
  ]);
  if (!profile) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  return {
    profile,
    policy: stored ? withoutRetiredFields(stored.value) : DEFAULT_HOSPITAL_POLICY,
    system,
    storageUsedBytes,
    updatedAt: stored?.updatedAt ?? null,
    updatedByUserId: stored?.updatedByUserId ?? null,
  };
}

/** Saves the profile and the policy; the policy may not be looser than the system maximums. Audited before/after. */
export async function setHospitalSettings(
  request: PutHospitalSettingsRequest,
  caller: Caller,
  deps: WriteDeps,
): Promise<HospitalSettings> {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  const system = await systemPolicy(deps);
  assertNotLessRestrictive(request.policy, system, 'system maximums');
  const [profileBefore, policyBefore] = await Promise.all([
    deps.settings.getHospitalProfile(caller.hospitalId),
    hospitalPolicy(caller.hospitalId, deps),
  ]);
  if (!profileBefore) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  const at = deps.clock.now();
  await deps.settings.updateHospitalProfile(caller.hospitalId, request.profile, at);
  await deps.settings.putHospitalPolicy(caller.hospitalId, {
    value: request.policy,
    updatedAt: at,
    updatedByUserId: caller.userId,
  });
  // The profile is the hospital's contact data, not a patient's: it may be kept in the audit trail.
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'HOSPITAL_SETTINGS_CHANGED',
    ...actorOf(caller),
    details: {
      before: { profile: profileBefore, policy: policyBefore },
      after: { profile: request.profile, policy: request.policy },
    },
  });
  await notifyPolicyChange(caller, 'the hospital settings', deps);
  return getHospitalSettings(caller, deps);
}

// --- Team overrides (the team's lead or a hospital admin) ---

/** A team of another hospital, or a team the caller does not lead, answers 404 (docs/roles-and-permissions.md). */
async function assertTeamPolicyAccess(
  caller: Caller,
  teamId: string,
  deps: TeamPolicyDeps,
  write: boolean,
): Promise<void> {
  const team = await deps.teams.getTeam(caller.hospitalId, teamId);
  if (!team) throw new NotFoundError();
  if (caller.role === 'HOSPITAL_ADMIN') return;
  if (caller.teamId !== teamId) throw new NotFoundError();
  if (write && caller.role !== 'TEAM_LEAD') throw new AccessDeniedError();
}

export type TeamPolicyDeps = SettingsDeps & {
  teams: { getTeam(hospitalId: string, teamId: string): Promise<unknown> };
};

export async function getTeamPolicy(caller: Caller, teamId: string, deps: TeamPolicyDeps): Promise<TeamPolicyResponse> {
  await assertTeamPolicyAccess(caller, teamId, deps, false);
  const [system, hospital, stored] = await Promise.all([
    systemPolicy(deps),
    hospitalPolicy(caller.hospitalId, deps),
    deps.settings.getTeamPolicy(caller.hospitalId, teamId),
  ]);
  const inherited = resolvePolicy({ system, hospital });
  const overrides = stored?.value ?? {};
  return {
    overrides,
    inherited,
    effective: resolvePolicy({ system, hospital, team: overrides }),
    updatedAt: stored?.updatedAt ?? null,
    updatedByUserId: stored?.updatedByUserId ?? null,
  };
}

/** A lead (or a hospital admin) overrides the team's policy, only more restrictively than the hospital's. */
export async function setTeamPolicy(
  caller: Caller,
  teamId: string,
  overrides: TeamPolicyOverrides,
  deps: TeamPolicyDeps & WriteDeps,
): Promise<TeamPolicyResponse> {
  await assertTeamPolicyAccess(caller, teamId, deps, true);
  const inherited = await policyFor(caller.hospitalId, null, deps);
  assertNotLessRestrictive(overrides, inherited, 'hospital defaults', TEAM_RULES);
  const before = (await deps.settings.getTeamPolicy(caller.hospitalId, teamId))?.value ?? {};
  // A shorter retention is "stricter", yet it deletes data: only a hospital admin shortens it; a lead may keep or
  // lengthen the team's retention, never shorten it (docs/domain.md#policies-and-inheritance).
  if (caller.role !== 'HOSPITAL_ADMIN') {
    const [system, hospital] = await Promise.all([systemPolicy(deps), hospitalPolicy(caller.hospitalId, deps)]);
    const current = resolvePolicy({ system, hospital, team: before }).dataRetentionDays;
    const next = resolvePolicy({ system, hospital, team: overrides }).dataRetentionDays;
    if (next < current) throw new RuleError('RETENTION_SHORTENING_DENIED');
  }
  await deps.settings.putTeamPolicy(caller.hospitalId, teamId, {
    value: overrides,
    updatedAt: deps.clock.now(),
    updatedByUserId: caller.userId,
  });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'TEAM_POLICY_CHANGED',
    ...actorOf(caller),
    details: { teamId, before, after: overrides },
  });
  await notifyPolicyChange(caller, "a team's policy", deps);
  return getTeamPolicy(caller, teamId, deps);
}
