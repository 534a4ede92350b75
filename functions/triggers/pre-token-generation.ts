import {
  AdminAddUserToGroupCommand,
  AdminRemoveUserFromGroupCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { IDP_AMR_ATTRIBUTE, IDP_GROUPS_ATTRIBUTE, MFA_CLAIM, mfaMethodOf } from '#shared/domain/auth/id-token.ts';
import {
  checkTokenUser,
  syncFederatedSignIn,
  type TokenUserDeps,
} from '#shared/domain/organisation/federated-sign-in.ts';
import { createMfaSettings, type MfaSettings } from '#functions/adapters/cognito/mfa-settings.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import { ROLES } from '#shared/vocabulary/roles.ts';

/** Whether a hospital is deactivated (deleted): its users get no token (docs/states.md#hospitals). */
export type HospitalStatuses = { isDeactivated(hospitalId: string): Promise<boolean> };

/** What the trigger reaches of our user records (docs/sso.md#later-sign-ins), and the pool for the role's group. */
export type TokenAccounts = Omit<TokenUserDeps, 'changeGroup'> & {
  cognito: Pick<CognitoIdentityProviderClient, 'send'>;
};

/**
 * User pool pre-token-generation trigger, run by the pool for every token it issues (sign-in and refresh):
 *
 * - no token for a deactivated hospital's users, nor for a user whose record is DISABLED (docs/sso.md#later-sign-ins:
 *   at a refresh Cognito does not ask the identity provider, so our record, which a SCIM deactivation sets, decides);
 * - at a federated sign-in (not a refresh), the user record follows the provider's claims: the name and the role its
 *   groups map to, the pool group moved and the token's groups written with the new role;
 * - the `mfa` claim: whether a second factor vouches for the sign-in, so the API can require it of the super admin,
 *   hospital admins and team leads in prod. Federated users carry the `identities` attribute; their sign-in counts as
 *   two factors only when their hospital's identity provider says so (its amr or context class, mapped into
 *   `custom:idpAmr` at each sign-in).
 */
export function preTokenGeneration(
  mfa: MfaSettings,
  hospitals?: () => HospitalStatuses,
  accounts?: () => Promise<TokenAccounts>,
) {
  return async (event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> => {
    const attributes = event.request.userAttributes;
    const hospitalId = attributes['custom:hospitalId'];
    // Throwing here makes the user pool refuse the sign-in or refresh with this message.
    if (hospitalId && hospitals && (await hospitals().isDeactivated(hospitalId)))
      throw new Error(catalogueMessage('HOSPITAL_DEACTIVATED'));
    const federated = Boolean(attributes.identities);
    const groups = event.request.groupConfiguration?.groupsToOverride ?? [];
    let groupsToOverride: string[] | undefined;
    if (hospitalId && attributes.sub && accounts) {
      const deps = await accounts();
      if (federated && event.triggerSource !== 'TokenGeneration_RefreshTokens') {
        const separator = event.userName.indexOf('_');
        const user = await syncFederatedSignIn(
          {
            hospitalId,
            userId: attributes.sub,
            providerName: separator > 0 ? event.userName.slice(0, separator) : '',
            givenName: attributes.given_name,
            familyName: attributes.family_name,
            groups: attributes[IDP_GROUPS_ATTRIBUTE],
          },
          { ...deps, changeGroup: (from, to) => changeGroup(deps.cognito, event, from, to) },
        );
        // The pool built the token's groups before the change: the token names the role the user record now has.
        if (user && !groups.includes(user.role))
          groupsToOverride = [...groups.filter((g) => !(ROLES as readonly string[]).includes(g)), user.role];
      } else {
        await checkTokenUser(hospitalId, attributes.sub, deps);
      }
    }
    const method = mfaMethodOf({
      federated,
      mfaMethods: federated ? [] : await mfa.enabledMethods(event.userPoolId, event.userName),
      idpAmr: attributes[IDP_AMR_ATTRIBUTE],
    });
    event.response = {
      claimsOverrideDetails: {
        ...(method ? { claimsToAddOrOverride: { [MFA_CLAIM]: method } } : { claimsToSuppress: [MFA_CLAIM] }),
        ...(groupsToOverride ? { groupOverrideDetails: { groupsToOverride } } : {}),
      },
    };
    return event;
  };
}

async function changeGroup(
  cognito: Pick<CognitoIdentityProviderClient, 'send'>,
  event: PreTokenGenerationTriggerEvent,
  from: string,
  to: string,
): Promise<void> {
  const user = { UserPoolId: event.userPoolId, Username: event.userName };
  await cognito.send(new AdminRemoveUserFromGroupCommand({ ...user, GroupName: from }));
  await cognito.send(new AdminAddUserToGroupCommand({ ...user, GroupName: to }));
}

let live: ReturnType<typeof preTokenGeneration> | undefined;

export async function handler(event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> {
  live ??= preTokenGeneration(createMfaSettings(), hospitalStatuses, tokenAccounts);
  return live(event);
}

let statuses: HospitalStatuses | undefined;

/** The hospital item, read through the table. Built on first use. */
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

let accountsOnce: Promise<TokenAccounts> | undefined;

/** The user records, the hospital's SSO and policy, the audit trail, and the pool: built on first use. */
function tokenAccounts(): Promise<TokenAccounts> {
  accountsOnce ??= (async () => {
    const [{ getDeps }, { prepareClient }, { serverEnv }, { logger }] = await Promise.all([
      import('#functions/lib/deps.ts'),
      import('#functions/adapters/aws-clients.ts'),
      import('#functions/lib/env.ts'),
      import('#functions/lib/logger.ts'),
    ]);
    const deps = await getDeps();
    return {
      directory: deps.directory,
      organisation: deps.organisation,
      sso: deps.sso,
      settings: deps.settings,
      audit: deps.audit,
      clock: deps.clock,
      cognito: prepareClient(
        new CognitoIdentityProviderClient({ endpoint: serverEnv().COGNITO_ENDPOINT || undefined }),
      ),
      log: (message, fields) => logger.info(message, fields),
    };
  })();
  return accountsOnce;
}
