import {
  AdminAddUserToGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PostConfirmationTriggerEvent } from 'aws-lambda';
import { z } from 'zod';
import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { federatedDefaultRole, placeFederatedUser, type FederationProvider } from '#shared/domain/auth/federation.ts';
import { ENV } from '#shared/definitions/env.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import { logger, startInvocation } from '#functions/lib/logger.ts';

const ProvidersSchema = z.array(z.object({ name: z.string(), hospitalId: z.string(), domain: z.string() }));

/**
 * User pool post-confirmation trigger (docs/roles-and-permissions.md#single-sign-on): a federated user's first
 * sign-in places them in the hospital of their provider, with the hospital's default role (its group and the
 * `custom:hospitalId` attribute) and an ACTIVE user record with that role's default permissions and no team yet.
 * Other confirmations (accepted invitations) are left alone: the API placed those users itself.
 */
export function postConfirmation(deps: {
  providers: readonly FederationProvider[];
  directory: Directory;
  cognito: Pick<CognitoIdentityProviderClient, 'send'>;
  now: () => string;
}) {
  return async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
    const attributes = event.request.userAttributes;
    if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp' || !attributes.identities) return event;
    const { hospitalId } = placeFederatedUser({ userName: event.userName, email: attributes.email }, deps.providers);
    const role = federatedDefaultRole(
      (await deps.directory.getHospital(hospitalId)) as { defaultMemberRole?: unknown } | undefined,
    );
    await deps.cognito.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: event.userPoolId,
        Username: event.userName,
        UserAttributes: [{ Name: 'custom:hospitalId', Value: hospitalId }],
      }),
    );
    await deps.cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: event.userPoolId, Username: event.userName, GroupName: role }),
    );
    await deps.directory.putUser({
      id: attributes.sub!,
      email: attributes.email!,
      firstName: attributes.given_name ?? '',
      lastName: attributes.family_name ?? '',
      role,
      status: 'ACTIVE',
      hospitalId,
      teamId: null,
      permissions: [...DEFAULT_PERMISSIONS[role]],
      createdAt: deps.now(),
    });
    logger.info('federated user placed', { hospitalId, role });
    return event;
  };
}

let live: ReturnType<typeof postConfirmation> | undefined;

export async function handler(
  event: PostConfirmationTriggerEvent,
  context?: Context,
): Promise<PostConfirmationTriggerEvent> {
  startInvocation(context);
  if (!live) {
    const { getDeps } = await import('#functions/lib/deps.ts');
    live = postConfirmation({
      providers: ProvidersSchema.parse(JSON.parse(process.env[ENV.SSO_PROVIDERS] ?? '[]')),
      directory: (await getDeps()).directory,
      cognito: prepareClient(new CognitoIdentityProviderClient({})),
      now: () => new Date().toISOString(),
    });
  }
  return live(event);
}
