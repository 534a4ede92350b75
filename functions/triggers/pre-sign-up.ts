import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { z } from 'zod';
import { ENV } from '#shared/definitions/env.ts';
import { placeFederatedUser, type FederationProvider } from '#shared/domain/auth/federation.ts';

const ProvidersSchema = z.array(z.object({ name: z.string(), hospitalId: z.string(), domain: z.string() }));

/**
 * User pool pre-sign-up trigger (docs/roles-and-permissions.md#single-sign-on). A first sign-in through a hospital's
 * identity provider is let in only for that hospital's e-mail domain, confirmed and with its e-mail verified (the
 * provider vouches for it); anything else is refused with the reason. Sign-ups of other kinds (accounts the API
 * creates for accepted invitations) pass unchanged.
 */
export function preSignUp(providers: readonly FederationProvider[]) {
  return async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
    if (event.triggerSource !== 'PreSignUp_ExternalProvider') return event;
    placeFederatedUser({ userName: event.userName, email: event.request.userAttributes.email }, providers);
    event.response.autoConfirmUser = true;
    event.response.autoVerifyEmail = true;
    return event;
  };
}

export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  const providers = ProvidersSchema.parse(JSON.parse(process.env[ENV.SSO_PROVIDERS] ?? '[]'));
  return preSignUp(providers)(event);
}
