import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, NotFoundError, UnauthorizedError } from '#shared/domain/errors.ts';
import type { ScimToken } from '#shared/schemas/api/scim.ts';
import { raiseSecurityAlert, type AlertDeps } from '#shared/domain/notifications/alerts.ts';
import type { ScimDeps, ScimTokenRecord } from './ports.ts';

/** The alert ports (docs/domain.md#security-alerts) are optional: without them nobody is told. */
type Alerting = Omit<AlertDeps, 'clock' | 'ids' | 'settings'> & { settings?: AlertDeps['settings'] };

/**
 * SCIM bearer tokens of a hospital (docs/sso.md#provisioning-scim): a hospital admin creates one for their identity
 * provider and sees it once; the table keeps its SHA-256 only. Creation and revocation are audited.
 */

function assertHospitalAdmin(caller: Caller): void {
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
}

const toView = (record: ScimTokenRecord): ScimToken => ({
  id: record.id,
  name: record.name,
  createdAt: record.createdAt,
  createdByUserId: record.createdByUserId,
  revokedAt: record.revokedAt ?? null,
});

export async function listScimTokens(caller: Caller, deps: Pick<ScimDeps, 'scimTokens'>) {
  assertHospitalAdmin(caller);
  const items = await deps.scimTokens.list(caller.hospitalId);
  return { items: items.map(toView).sort((a, b) => b.createdAt.localeCompare(a.createdAt)) };
}

export async function createScimToken(
  name: string,
  caller: Caller,
  deps: Pick<ScimDeps, 'scimTokens' | 'tokens' | 'ids' | 'clock' | 'audit'> & Alerting,
) {
  assertHospitalAdmin(caller);
  const token = deps.tokens.newToken();
  const record: ScimTokenRecord = {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    name,
    hash: deps.tokens.hash(token),
    createdAt: deps.clock.now(),
    createdByUserId: caller.userId,
  };
  await deps.scimTokens.create(record);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'SCIM_TOKEN_CREATED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`.trim(),
    details: { tokenId: record.id, name },
  });
  await raiseSecurityAlert(
    caller.hospitalId,
    {
      type: 'ACCESS_TOKEN_CHANGED',
      title: 'SCIM token created',
      description: `${`${caller.firstName} ${caller.lastName}`.trim()} created SCIM token ${record.id}, which can provision users.`,
      href: '/hospital-admin/settings',
    },
    deps,
  );
  return { token, item: toView(record) };
}

export async function revokeScimToken(
  tokenId: string,
  caller: Caller,
  deps: Pick<ScimDeps, 'scimTokens' | 'clock' | 'audit'> & Alerting,
) {
  assertHospitalAdmin(caller);
  const existing = await deps.scimTokens.get(caller.hospitalId, tokenId);
  if (!existing) throw new NotFoundError();
  if (existing.revokedAt) return toView(existing);
  const revoked = await deps.scimTokens.revoke(caller.hospitalId, tokenId, deps.clock.now(), caller.userId);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'SCIM_TOKEN_REVOKED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`.trim(),
    details: { tokenId, name: existing.name },
  });
  await raiseSecurityAlert(
    caller.hospitalId,
    {
      type: 'ACCESS_TOKEN_CHANGED',
      title: 'SCIM token revoked',
      description: `${`${caller.firstName} ${caller.lastName}`.trim()} revoked SCIM token ${tokenId}; it is refused from now on.`,
      href: '/hospital-admin/settings',
    },
    deps,
  );
  return toView(revoked);
}

/** The identity provider calling with a token: its hospital, and the token that audit entries name as the actor. */
export type ScimActor = { hospitalId: string; tokenId: string; name: string };

/** The bearer token's hospital; a missing, unknown or revoked token is refused (RFC 7644 2, RFC 6750 3.1). */
export async function authenticateScim(
  bearer: string | undefined,
  deps: Pick<ScimDeps, 'scimTokens' | 'tokens' | 'directory'>,
): Promise<ScimActor> {
  if (!bearer) throw new UnauthorizedError();
  const record = await deps.scimTokens.byHash(deps.tokens.hash(bearer));
  if (!record || record.revokedAt) throw new UnauthorizedError('INVALID_CREDENTIALS');
  const hospital = await deps.directory.getHospital(record.hospitalId);
  if (!hospital || hospital.status === 'DEACTIVATED') throw new UnauthorizedError('INVALID_CREDENTIALS');
  return { hospitalId: record.hospitalId, tokenId: record.id, name: record.name };
}

/**
 * The token as a caller of the organisation core: it acts as the hospital's administrator on the hospital's users
 * (the same disable, enable and role paths a hospital admin takes), and the audit trail names it as
 * `scim:<token id>`.
 */
export function scimCaller(actor: ScimActor): Caller {
  return {
    userId: `scim:${actor.tokenId}`,
    email: '',
    hospitalId: actor.hospitalId,
    teamId: null,
    role: 'HOSPITAL_ADMIN',
    permissions: [...DEFAULT_PERMISSIONS.HOSPITAL_ADMIN],
    firstName: 'SCIM',
    lastName: actor.name,
  };
}
