import {
  AdminAddUserToGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PostConfirmationTriggerEvent } from 'aws-lambda';
import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import type { Directory, UserRecord } from '#shared/domain/auth/ports.ts';
import { moveUserCounters } from '#shared/domain/dashboards/counters.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { groupsOf, placeFederatedUser, roleFromGroups } from '#shared/domain/auth/federation.ts';
import { IDP_GROUPS_ATTRIBUTE } from '#shared/domain/auth/id-token.ts';
import type { SettingsStore, SsoStore } from '#shared/domain/settings/ports.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import { serverEnv } from '#functions/lib/env.ts';
import { logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * User pool post-confirmation trigger (docs/sso.md#just-in-time-accounts): a federated user's first sign-in places
 * them in the hospital of their provider, with the role the hospital maps their provider groups to, or its default
 * member role (the Users & Teams tab's) (its group and the `custom:hospitalId` attribute) and an ACTIVE user record with that role's default permissions and no team yet.
 * Other confirmations (accepted invitations) are left alone: the API placed those users itself.
 */
export function postConfirmation(deps: {
  sso: Pick<SsoStore, 'byDomain'>;
  settings: Pick<SettingsStore, 'getHospitalPolicy'>;
  directory: Directory;
  /**
   * Users provisioned ahead of their first sign-in by the hospital's SCIM client (docs/sso.md#provisioning-scim): the
   * INVITED record of the e-mail in the same hospital is taken over, its role and name kept, its item replaced.
   */
  provisioned?: {
    findUserByEmail(email: string): Promise<UserRecord | undefined>;
    deleteUser(hospitalId: string, userId: string): Promise<void>;
  };
  /** The hospital's users by status (docs/domain.md#counters). */
  organisation: Pick<OrganisationCounters, 'add'>;
  cognito: Pick<CognitoIdentityProviderClient, 'send'>;
  now: () => string;
}) {
  return async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
    const attributes = event.request.userAttributes;
    if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp' || !attributes.identities) return event;
    const { hospitalId, sso } = await placeFederatedUser(
      { userName: event.userName, email: attributes.email },
      deps.sso,
    );
    const policy = (await deps.settings.getHospitalPolicy(hospitalId))?.value;
    const defaultRole = policy?.userAndTeam.defaultMemberRole === 'GUEST' ? 'GUEST' : 'TEAM_MEMBER';
    const existing = attributes.email ? await deps.provisioned?.findUserByEmail(attributes.email) : undefined;
    // Deprovisioned before their first sign-in: no account is made from the sign-in, so the API knows no user of
    // this identity and refuses it (docs/sso.md#provisioning-scim).
    if (existing && existing.hospitalId === hospitalId && existing.status === 'DISABLED') {
      logger.info('federated user deprovisioned, not placed', { hospitalId });
      return event;
    }
    const adopted =
      existing && existing.hospitalId === hospitalId && existing.status === 'INVITED' && existing.id !== attributes.sub
        ? existing
        : undefined;
    const role = adopted?.role ?? roleFromGroups(groupsOf(attributes[IDP_GROUPS_ATTRIBUTE]), sso, defaultRole);
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
    const user: UserRecord = {
      id: attributes.sub!,
      email: attributes.email!,
      firstName: adopted?.firstName || (attributes.given_name ?? ''),
      lastName: adopted?.lastName || (attributes.family_name ?? ''),
      role,
      status: 'ACTIVE',
      hospitalId,
      teamId: null,
      permissions: [...DEFAULT_PERMISSIONS[role]],
      createdAt: adopted?.createdAt ?? deps.now(),
    };
    await deps.directory.putUser(user);
    if (adopted) await deps.provisioned!.deleteUser(hospitalId, adopted.id);
    // The item replaced: the adopted INVITED record, or one already stored under this identity's own id.
    const replaced = adopted ?? (existing?.id === user.id && existing.hospitalId === hospitalId ? existing : undefined);
    await moveUserCounters(deps.organisation, hospitalId, replaced, user);
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
    const deps = await getDeps();
    live = postConfirmation({
      sso: deps.sso,
      settings: deps.settings,
      directory: deps.directory,
      organisation: deps.organisation,
      provisioned: {
        findUserByEmail: (email) => deps.organisation.findUserByEmail(email),
        deleteUser: (hospitalId, userId) => deps.invitationDirectory.deleteUser(hospitalId, userId),
      },
      cognito: prepareClient(
        new CognitoIdentityProviderClient({ endpoint: serverEnv().COGNITO_ENDPOINT || undefined }),
      ),
      now: () => new Date().toISOString(),
    });
  }
  return live(event);
}
