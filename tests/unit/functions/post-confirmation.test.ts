import {
  AdminAddUserToGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { Directory, UserRecord } from '#shared/domain/auth/ports.ts';
import { postConfirmation } from '#functions/triggers/post-confirmation.ts';
import { createMemorySsoStore } from '#functions/adapters/memory/sso-store.ts';
import { DEFAULT_HOSPITAL_POLICY } from '#shared/schemas/api/policies.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
afterEach(() => cognito.reset());
/** Northside connected its provider: leads by their provider group (docs/sso.md#roles-from-groups). */
async function northside() {
  const sso = createMemorySsoStore();
  await sso.save('hosp-northside', {
    issuer: 'https://idp.northside.org',
    clientId: 'iws',
    domains: ['northside.org'],
    groupsClaim: 'groups',
    roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
    enabled: true,
    ssoOnly: false,
    providerName: 'oidc-hosp-northside',
    updatedAt: '2026-03-01T09:00:00.000Z',
    updatedByUserId: 'admin',
  });
  return sso;
}

function directory(hospital: Record<string, unknown>) {
  const users: UserRecord[] = [];
  return {
    users,
    getHospital: async () => hospital,
    putUser: async (u: UserRecord) => {
      users.push(u);
    },
  } as unknown as Directory & { users: UserRecord[] };
}

/** The hospital item's counters as UpdateItem ADD moves them (docs/domain.md#counters). */
function hospitalCounters() {
  const moved: Record<string, number> = {};
  return {
    moved,
    add: async (_hospitalId: string, _target: unknown, deltas: Record<string, number | undefined>) => {
      for (const [name, by] of Object.entries(deltas)) moved[name] = (moved[name] ?? 0) + (by ?? 0);
    },
  };
}

/** A post-confirmation event as Cognito sends it after a federated first sign-in. */
function federatedConfirmation(): PostConfirmationTriggerEvent {
  return {
    version: '1',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_Pool',
    userName: 'oidc-hosp-northside_8f2c1',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'site-client' },
    triggerSource: 'PostConfirmation_ConfirmSignUp',
    request: {
      userAttributes: {
        sub: 'sub-fed-1',
        email: 'robin@northside.org',
        email_verified: 'true',
        given_name: 'Robin',
        family_name: 'Lee',
        'cognito:user_status': 'EXTERNAL_PROVIDER',
        identities: JSON.stringify([{ providerName: 'oidc-hosp-northside', providerType: 'OIDC', userId: '8f2c1' }]),
      },
    },
    response: {},
  } as PostConfirmationTriggerEvent;
}

describe('federated first sign-in (post-confirmation trigger)', () => {
  it("places a user of no mapped group in the provider's hospital with its default member role, group and an ACTIVE record", async () => {
    cognito.onAnyCommand().resolves({});
    const dir = directory({ id: 'hosp-northside' });
    const organisation = hospitalCounters();
    await postConfirmation({
      sso: await northside(),
      organisation,
      // The hospital's default member role (Users & Teams tab) is Guest.
      settings: {
        getHospitalPolicy: async () => ({
          value: {
            ...DEFAULT_HOSPITAL_POLICY,
            userAndTeam: { autoApproveTeamLeads: false, defaultMemberRole: 'GUEST' },
          },
          updatedAt: '2026-03-01T09:00:00.000Z',
          updatedByUserId: 'admin',
        }),
      },
      directory: dir,
      cognito: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
      now: () => '2026-03-01T09:00:00.000Z',
    })(federatedConfirmation());
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)[0]!.args[0].input.UserAttributes).toEqual([
      { Name: 'custom:hospitalId', Value: 'hosp-northside' },
    ]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input.GroupName).toBe('GUEST');
    expect(dir.users).toEqual([
      expect.objectContaining({
        id: 'sub-fed-1',
        hospitalId: 'hosp-northside',
        role: 'GUEST',
        status: 'ACTIVE',
        teamId: null,
        permissions: ['VIEW_DATASETS'],
      }),
    ]);
    // One more ACTIVE user of the hospital (the compliance center's users by status).
    expect(organisation.moved).toEqual({ users_ACTIVE: 1 });
  });

  it('gives the role the provider groups map to, and leaves non-federated confirmations alone', async () => {
    cognito.onAnyCommand().resolves({});
    const dir = directory({ id: 'hosp-northside' });
    const trigger = postConfirmation({
      sso: await northside(),
      organisation: hospitalCounters(),
      settings: { getHospitalPolicy: async () => undefined },
      directory: dir,
      cognito: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
      now: () => '2026-03-01T09:00:00.000Z',
    });
    const lead = federatedConfirmation();
    lead.request.userAttributes['custom:idpGroups'] = '["staff","radiology-leads"]';
    await trigger(lead);
    expect(dir.users[0]!.role).toBe('TEAM_LEAD');
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input.GroupName).toBe('TEAM_LEAD');
    const local = federatedConfirmation();
    delete local.request.userAttributes.identities;
    await trigger(local);
    expect(dir.users).toHaveLength(1);
  });
  it('takes over the record SCIM provisioned for the e-mail in the same hospital: its role and name, one record', async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const dir = directory({ id: 'hosp-northside' });
    const provisioned: UserRecord = {
      id: 'scim-user-1',
      email: 'robin@northside.org',
      firstName: 'Robin',
      lastName: 'Lee-Provisioned',
      role: 'TEAM_LEAD',
      status: 'INVITED',
      hospitalId: 'hosp-northside',
      teamId: null,
      permissions: [],
      createdAt: '2026-02-01T09:00:00.000Z',
    };
    const deleted: string[] = [];
    const organisation = hospitalCounters();
    // Act
    await postConfirmation({
      sso: await northside(),
      organisation,
      settings: { getHospitalPolicy: async () => undefined },
      directory: dir,
      provisioned: {
        findUserByEmail: async (email) => (email === provisioned.email ? provisioned : undefined),
        deleteUser: async (hospitalId, userId) => void deleted.push(`${hospitalId}/${userId}`),
      },
      cognito: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
      now: () => '2026-03-01T09:00:00.000Z',
    })(federatedConfirmation());
    // Assert
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input.GroupName).toBe('TEAM_LEAD');
    expect(dir.users).toEqual([
      expect.objectContaining({
        id: 'sub-fed-1',
        role: 'TEAM_LEAD',
        status: 'ACTIVE',
        lastName: 'Lee-Provisioned',
        createdAt: '2026-02-01T09:00:00.000Z',
      }),
    ]);
    expect(deleted).toEqual(['hosp-northside/scim-user-1']);
    // The INVITED record became the ACTIVE one: one user moved between statuses, none added.
    expect(organisation.moved).toEqual({ users_INVITED: -1, users_ACTIVE: 1 });
  });
  it('places no account for an e-mail SCIM deprovisioned in the hospital before the first sign-in', async () => {
    // Arrange
    cognito.onAnyCommand().resolves({});
    const dir = directory({ id: 'hosp-northside' });
    const deprovisioned: UserRecord = {
      id: 'scim-user-2',
      email: 'robin@northside.org',
      firstName: 'Robin',
      lastName: 'Lee',
      role: 'TEAM_MEMBER',
      status: 'DISABLED',
      hospitalId: 'hosp-northside',
      teamId: null,
      permissions: [],
      createdAt: '2026-02-01T09:00:00.000Z',
    };
    const organisation = hospitalCounters();
    // Act
    await postConfirmation({
      sso: await northside(),
      organisation,
      settings: { getHospitalPolicy: async () => undefined },
      directory: dir,
      provisioned: { findUserByEmail: async () => deprovisioned, deleteUser: async () => undefined },
      cognito: new CognitoIdentityProviderClient({ region: 'eu-west-1' }),
      now: () => '2026-03-01T09:00:00.000Z',
    })(federatedConfirmation());
    // Assert
    expect(dir.users).toEqual([]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    expect(organisation.moved).toEqual({});
  });
});
