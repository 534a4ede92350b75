import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { MFA_CLAIM, mfaMethodOf } from '#shared/domain/auth/id-token.ts';
import { createMfaSettings, type MfaSettings } from '#functions/adapters/cognito/mfa-settings.ts';

/**
 * User pool pre-token-generation trigger: writes into the ID token whether a second factor vouches for the sign-in
 * (the `mfa` claim), so the API can require it of hospital admins and team leads in prod. Federated users carry the
 * `identities` attribute; their hospital's identity provider authenticates them.
 */
export function preTokenGeneration(mfa: MfaSettings) {
  return async (event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> => {
    const federated = Boolean(event.request.userAttributes.identities);
    const method = mfaMethodOf({
      federated,
      mfaMethods: federated ? [] : await mfa.enabledMethods(event.userPoolId, event.userName),
    });
    event.response = {
      claimsOverrideDetails: method
        ? { claimsToAddOrOverride: { [MFA_CLAIM]: method } }
        : { claimsToSuppress: [MFA_CLAIM] },
    };
    return event;
  };
}

let live: ReturnType<typeof preTokenGeneration> | undefined;

export async function handler(event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> {
  live ??= preTokenGeneration(createMfaSettings());
  return live(event);
}
