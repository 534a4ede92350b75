import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { IDP_AMR_ATTRIBUTE, MFA_CLAIM, mfaMethodOf } from '#shared/domain/auth/id-token.ts';
import { createMfaSettings, type MfaSettings } from '#functions/adapters/cognito/mfa-settings.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';

/** Whether a hospital is deactivated (deleted): its users get no token (docs/states.md#hospitals). */
export type HospitalStatuses = { isDeactivated(hospitalId: string): Promise<boolean> };

/**
 * User pool pre-token-generation trigger: writes into the ID token whether a second factor vouches for the sign-in
 * (the `mfa` claim), so the API can require it of the super admin, hospital admins and team leads in prod. Federated
 * users carry the `identities` attribute; their sign-in counts as two factors only when their hospital's identity
 * provider says so (its amr or context class, mapped into `custom:idpAmr` at each sign-in).
 */
export function preTokenGeneration(mfa: MfaSettings, hospitals?: () => HospitalStatuses) {
  return async (event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> => {
    const hospitalId = event.request.userAttributes['custom:hospitalId'];
    // Throwing here makes the user pool refuse the sign-in or refresh with this message.
    if (hospitalId && hospitals && (await hospitals().isDeactivated(hospitalId)))
      throw new Error(catalogueMessage('HOSPITAL_DEACTIVATED'));
    const federated = Boolean(event.request.userAttributes.identities);
    const method = mfaMethodOf({
      federated,
      mfaMethods: federated ? [] : await mfa.enabledMethods(event.userPoolId, event.userName),
      idpAmr: event.request.userAttributes[IDP_AMR_ATTRIBUTE],
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
  live ??= preTokenGeneration(createMfaSettings(), hospitalStatuses);
  return live(event);
}

let statuses: HospitalStatuses | undefined;

/** The hospital item, read through the table (the trigger's one table grant: read). Built on first use. */
function hospitalStatuses(): HospitalStatuses {
  statuses ??= {
    async isDeactivated(hospitalId) {
      const { createAwsDirectory } = await import('#functions/adapters/dynamo/directory.ts');
      const hospital = await createAwsDirectory().getHospital(hospitalId);
      return hospital?.status === 'DEACTIVATED';
    },
  };
  return statuses;
}
