import type { Context, PostAuthenticationTriggerEvent, PreAuthenticationTriggerEvent } from 'aws-lambda';
import { countSignIn } from '#shared/domain/audit/sign-ins.ts';
import { noteSignInForAlerts, type AlertDeps } from '#shared/domain/notifications/alerts.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import type { SsoStore } from '#shared/domain/settings/ports.ts';
import { passwordSignInAllowed, SSO_ONLY_MESSAGE } from '#shared/domain/settings/sso.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';

export type SignInEvent = PreAuthenticationTriggerEvent | PostAuthenticationTriggerEvent;

type SignInDeps = Omit<AlertDeps, 'clock' | 'organisation'> & {
  organisation: Pick<OrganisationCounters, 'addUsage'> & Partial<NonNullable<AlertDeps['organisation']>>;
  audit: Pick<AuditLog, 'record'>;
  directory: Pick<Directory, 'getUser'>;
  sso: Pick<SsoStore, 'byDomain'>;
};

/** A password sign-in of a domain whose hospital chose "SSO only" (docs/sso.md#sso-only); Cognito shows the message. */
export class SsoOnlyError extends Error {
  override name = 'SsoOnlyError';
  constructor() {
    super(SSO_ONLY_MESSAGE);
  }
}

/**
 * The user pool's pre- and post-authentication triggers (docs/domain.md#failed-sign-ins): an attempt by a known user,
 * then its success, counted on the user's hospital for the compliance center; each success is also one
 * USER_SIGNED_IN event in the audit trail. Each also counts towards a burst of failed sign-ins of the user, which
 * alerts the hospital admins (docs/domain.md#security-alerts). Counting never stands in the way of a sign-in: a
 * failure here is logged (ids only) and the sign-in goes on, since a trigger that throws refuses it.
 */
export function signInEvents(deps: () => Promise<SignInDeps>, now = () => new Date()) {
  return async <E extends SignInEvent>(event: E): Promise<E> => {
    const attributes = event.request.userAttributes;
    const hospitalId = attributes['custom:hospitalId'];
    const phase = event.triggerSource === 'PreAuthentication_Authentication' ? 'attempt' : 'success';
    // The check "SSO only" (docs/sso.md#sso-only): the pool runs this trigger for its own (password) sign-ins, never
    // for a federated one; a user of a single-sign-on-only domain is refused here, before the password is checked.
    if (phase === 'attempt' && !attributes.identities) {
      const allowed = await passwordSignInAllowed({ email: attributes.email, hospitalId }, (await deps()).sso);
      if (!allowed) throw new SsoOnlyError();
    }
    if (!hospitalId) return event;
    try {
      const ports = await deps();
      const at = now().toISOString();
      await countSignIn(phase, hospitalId, at, ports.organisation);
      const userId = attributes.sub;
      if (phase === 'success' && userId) {
        const user = await ports.directory.getUser(hospitalId, userId);
        await ports.audit.record({
          hospitalId,
          action: 'USER_SIGNED_IN',
          actorUserId: userId,
          actorName: user ? `${user.firstName} ${user.lastName}` : userId,
          at,
          details: { method: 'password', ...(user ? { role: user.role } : {}) },
        });
      }
      if (userId) {
        const { organisation } = ports;
        const listUsers = organisation.listUsers?.bind(organisation);
        await noteSignInForAlerts(phase, hospitalId, userId, at, {
          ...ports,
          organisation: listUsers ? { listUsers } : undefined,
          clock: { now: () => at },
        });
      }
    } catch (error) {
      logger.error('sign-in not recorded', { phase, hospitalId, ...errorOrigin(error) });
    }
    return event;
  };
}

const live = signInEvents(getDeps);

export async function handler<E extends SignInEvent>(event: E, context?: Context): Promise<E> {
  startInvocation(context);
  return live(event);
}
