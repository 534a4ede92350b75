import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { placeFederatedUser } from '#shared/domain/auth/federation.ts';
import type { SsoStore } from '#shared/domain/settings/ports.ts';

/**
 * User pool pre-sign-up trigger (docs/sso.md#just-in-time-accounts). A first sign-in through a hospital's identity
 * provider is let in only for that hospital's e-mail domains, confirmed and with its e-mail verified (the provider
 * vouches for it); anything else is refused with the reason. Sign-ups of other kinds (accounts the API creates for
 * accepted invitations) pass unchanged.
 */
export function preSignUp(sso: () => Promise<Pick<SsoStore, 'byDomain'>>) {
  return async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
    if (event.triggerSource !== 'PreSignUp_ExternalProvider') return event;
    await placeFederatedUser({ userName: event.userName, email: event.request.userAttributes.email }, await sso());
    event.response.autoConfirmUser = true;
    event.response.autoVerifyEmail = true;
    return event;
  };
}

const live = preSignUp(async () => {
  const { getDeps } = await import('#functions/lib/deps.ts');
  return (await getDeps()).sso;
});

export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  return live(event);
}
