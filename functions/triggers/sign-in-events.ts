import type { PostAuthenticationTriggerEvent, PreAuthenticationTriggerEvent } from 'aws-lambda';
import { countSignIn } from '#shared/domain/audit/sign-ins.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger } from '#functions/lib/logger.ts';

export type SignInEvent = PreAuthenticationTriggerEvent | PostAuthenticationTriggerEvent;

/**
 * The user pool's pre- and post-authentication triggers (docs/domain.md#failed-sign-ins): an attempt by a known user,
 * then its success, counted on the user's hospital for the compliance center. Counting never stands in the way of a
 * sign-in: a failure here is logged (ids only) and the sign-in goes on, since a trigger that throws refuses it.
 */
export function signInEvents(counters: () => Promise<Pick<OrganisationCounters, 'addUsage'>>, now = () => new Date()) {
  return async <E extends SignInEvent>(event: E): Promise<E> => {
    const hospitalId = event.request.userAttributes['custom:hospitalId'];
    const phase = event.triggerSource === 'PreAuthentication_Authentication' ? 'attempt' : 'success';
    if (!hospitalId) return event;
    try {
      await countSignIn(phase, hospitalId, now().toISOString(), await counters());
    } catch (error) {
      logger.error('sign-in not counted', { phase, hospitalId, ...errorOrigin(error) });
    }
    return event;
  };
}

const live = signInEvents(async () => (await getDeps()).organisation);

export async function handler<E extends SignInEvent>(event: E): Promise<E> {
  return live(event);
}
