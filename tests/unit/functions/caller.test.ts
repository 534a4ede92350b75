import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import { mfaMethodOf, type TokenPolicy } from '#shared/domain/auth/id-token.ts';
import type { Directory, UserRecord } from '#shared/domain/auth/ports.ts';
import { resolveCaller, tokenPolicyOf } from '#functions/lib/caller.ts';
import { readEnv } from '#functions/lib/env.ts';

const POOL = 'eu-west-1_AbC123';
const CLIENT = 'site-client-id';
const ISSUER = `https://cognito-idp.eu-west-1.amazonaws.com/${POOL}`;
const BASE_ENV = {
  TABLE_NAME: 't',
  UPLOADS_BUCKET: 'u',
  STUDIES_BUCKET: 's',
  ASSETS_BUCKET: 'a',
  AWS_REGION: 'eu-west-1',
  USER_POOL_ID: POOL,
  USER_POOL_CLIENT_ID: CLIENT,
};
const policy: TokenPolicy = tokenPolicyOf(readEnv(BASE_ENV));
const prodPolicy: TokenPolicy = tokenPolicyOf(readEnv({ ...BASE_ENV, STAGE: 'prod' }));
const ME = (ROUTES as readonly RouteDefinition[]).find((r) => r.path === '/api/me')!;

function user(role: Role, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: 'sub-1',
    email: 'u@x.test',
    firstName: 'A',
    lastName: 'B',
    role,
    status: 'ACTIVE',
    hospitalId: 'h1',
    teamId: 't1',
    permissions: [...DEFAULT_PERMISSIONS[role]],
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const directoryOf = (
  record: UserRecord,
  hospitalStatus: 'ACTIVE' | 'DEACTIVATED' = 'ACTIVE',
  dataPolicy?: 'shared' | 'individual',
) =>
  ({
    getUser: async () => record,
    getTeam: async (_h: string, id: string) => ({
      id,
      hospitalId: 'h1',
      name: 'T',
      ...(dataPolicy ? { dataPolicy } : {}),
    }),
    getHospital: async () => ({
      id: 'h1',
      slug: 'h1',
      name: 'H',
      status: hospitalStatus,
      createdAt: '',
      updatedAt: '',
    }),
  }) as unknown as Directory;

function eventWith(claims: Record<string, string>): APIGatewayProxyEvent {
  return { requestContext: { authorizer: { claims } } } as unknown as APIGatewayProxyEvent;
}

function idToken(role: Role, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    sub: 'sub-1',
    'custom:hospitalId': 'h1',
    'cognito:groups': `[${role}]`,
    token_use: 'id',
    aud: CLIENT,
    iss: ISSUER,
    ...overrides,
  };
}

async function statusOf(claims: Record<string, string>, record: UserRecord, p = policy): Promise<number> {
  try {
    await resolveCaller(eventWith(claims), ME, directoryOf(record), p);
    return 200;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ACCESS_DENIED' || code === 'MFA_REQUIRED' ? 403 : 401;
  }
}

describe('resolveCaller: what the token must say', () => {
  it("takes the issuer from the pool's region, or from a local stand-in's Cognito endpoint", () => {
    expect(policy.issuer).toBe(ISSUER);
    const twin = tokenPolicyOf(readEnv({ ...BASE_ENV, COGNITO_ENDPOINT: 'http://127.0.0.1:3000/_aws/cognito' }));
    expect(twin.issuer).toBe(`http://127.0.0.1:3000/_aws/cognito/${POOL}`);
    expect(() => tokenPolicyOf(readEnv({ ...BASE_ENV, USER_POOL_CLIENT_ID: '' }))).toThrow(/USER_POOL_CLIENT_ID/);
  });

  it('accepts an ID token of the pool issued to the site client', async () => {
    expect(await statusOf(idToken('TEAM_MEMBER'), user('TEAM_MEMBER'))).toBe(200);
  });

  it("refuses (401) another app client's token, an access token, and another pool's token", async () => {
    const member = user('TEAM_MEMBER');
    expect(await statusOf(idToken('TEAM_MEMBER', { aud: 'other-client' }), member)).toBe(401);
    expect(await statusOf(idToken('TEAM_MEMBER', { token_use: 'access' }), member)).toBe(401);
    const { token_use: _t, ...withoutUse } = idToken('TEAM_MEMBER');
    expect(await statusOf(withoutUse, member)).toBe(401);
    const otherPool = `https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other`;
    expect(await statusOf(idToken('TEAM_MEMBER', { iss: otherPool }), member)).toBe(401);
  });

  it('serves only active users: invited and disabled ones get 403', async () => {
    expect(await statusOf(idToken('TEAM_MEMBER'), user('TEAM_MEMBER', { status: 'INVITED' }))).toBe(403);
    expect(await statusOf(idToken('TEAM_MEMBER'), user('TEAM_MEMBER', { status: 'DISABLED' }))).toBe(403);
  });
});

describe('resolveCaller: MFA for hospital admins and team leads in prod', () => {
  it('refuses a super admin, admin or lead token without the MFA claim in prod, accepts it with one', async () => {
    for (const role of ['SUPER_ADMIN', 'HOSPITAL_ADMIN', 'TEAM_LEAD'] as const) {
      expect(await statusOf(idToken(role), user(role), prodPolicy), role).toBe(403);
      expect(await statusOf(idToken(role, { mfa: 'totp' }), user(role), prodPolicy), role).toBe(200);
      expect(await statusOf(idToken(role, { mfa: 'idp' }), user(role), prodPolicy), role).toBe(200);
      expect(await statusOf(idToken(role, { mfa: 'none' }), user(role), prodPolicy), role).toBe(403);
      const refused = await resolveCaller(
        eventWith(idToken(role, { mfa: 'none' })),
        ME,
        directoryOf(user(role)),
        prodPolicy,
      ).catch((error: { code?: string }) => error.code);
      expect(refused, role).toBe('MFA_REQUIRED');
    }
  });

  it('refuses every user of a hospital whose policy requires two-factor when the token has none, on any stage', async () => {
    const asked: string[] = [];
    const twoFactor = {
      requiredFor: async (hospitalId: string) => {
        asked.push(hospitalId);
        return hospitalId === 'h1';
      },
    };
    const code = (claims: Record<string, string>, record: UserRecord) =>
      resolveCaller(eventWith(claims), ME, directoryOf(record), policy, twoFactor).then(
        () => 'OK',
        (error: { code?: string }) => error.code,
      );
    for (const role of ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const) {
      expect(await code(idToken(role), user(role)), role).toBe('MFA_REQUIRED');
      expect(await code(idToken(role, { mfa: 'totp' }), user(role)), role).toBe('OK');
      expect(await code(idToken(role, { mfa: 'idp' }), user(role)), role).toBe('OK');
    }
    expect(
      await code(idToken('TEAM_MEMBER', { 'custom:hospitalId': 'h2' }), user('TEAM_MEMBER', { hospitalId: 'h2' })),
    ).toBe('OK');
    // A token with a second factor never asks the policy.
    expect(asked.filter((h) => h === 'h1')).toHaveLength(4);
  });

  it('does not ask members in prod, nor anyone outside prod', async () => {
    expect(await statusOf(idToken('TEAM_MEMBER'), user('TEAM_MEMBER'), prodPolicy)).toBe(200);
    expect(await statusOf(idToken('HOSPITAL_ADMIN'), user('HOSPITAL_ADMIN'), policy)).toBe(200);
    expect(tokenPolicyOf(readEnv({ ...BASE_ENV, STAGE: 'staging' })).mfaRequiredFor).toEqual([]);
  });

  it('vouches for local accounts with TOTP enabled and for federated accounts whose provider used a second factor', () => {
    expect(mfaMethodOf({ federated: false, mfaMethods: ['SOFTWARE_TOKEN_MFA'] })).toBe('totp');
    // RFC 8176 values as Cognito keeps a mapped OIDC amr, and a SAML multi-factor context class.
    expect(mfaMethodOf({ federated: true, mfaMethods: [], idpAmr: '["pwd","mfa"]' })).toBe('idp');
    expect(mfaMethodOf({ federated: true, mfaMethods: [], idpAmr: '[pwd, otp]' })).toBe('idp');
    expect(mfaMethodOf({ federated: true, mfaMethods: [], idpAmr: 'hwk' })).toBe('idp');
    expect(mfaMethodOf({ federated: true, mfaMethods: [], idpAmr: 'https://refeds.org/profile/mfa' })).toBe('idp');
    expect(mfaMethodOf({ federated: true, mfaMethods: [], idpAmr: '["pwd"]' })).toBeUndefined();
    expect(mfaMethodOf({ federated: true, mfaMethods: [] })).toBeUndefined();
    // A local account's own attribute says nothing: only the pool's TOTP counts for it.
    expect(mfaMethodOf({ federated: false, mfaMethods: [], idpAmr: '["mfa"]' })).toBeUndefined();
    expect(mfaMethodOf({ federated: false, mfaMethods: [] })).toBeUndefined();
    expect(mfaMethodOf({ federated: false, mfaMethods: ['SMS_MFA'] })).toBeUndefined();
  });
});

describe('organisation changes the caller sees at once', () => {
  it('refuses every user of a deactivated hospital, whatever their own status', async () => {
    await expect(
      resolveCaller(
        eventWith(idToken('HOSPITAL_ADMIN')),
        ME,
        directoryOf(user('HOSPITAL_ADMIN'), 'DEACTIVATED'),
        policy,
      ),
    ).rejects.toMatchObject({ code: 'HOSPITAL_DEACTIVATED' });
    await expect(
      resolveCaller(eventWith(idToken('HOSPITAL_ADMIN')), ME, directoryOf(user('HOSPITAL_ADMIN')), policy),
    ).resolves.toMatchObject({ role: 'HOSPITAL_ADMIN' });
  });

  it('stops the old token of a user whose role was changed (its group names the old role)', async () => {
    await expect(
      resolveCaller(eventWith(idToken('TEAM_LEAD')), ME, directoryOf(user('TEAM_MEMBER')), policy),
    ).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(
      resolveCaller(eventWith(idToken('TEAM_MEMBER')), ME, directoryOf(user('TEAM_MEMBER')), policy),
    ).resolves.toMatchObject({ role: 'TEAM_MEMBER' });
  });

  it("carries the team's data policy, which decides whether a member sees their teammates' datasets", async () => {
    await expect(
      resolveCaller(
        eventWith(idToken('TEAM_MEMBER')),
        ME,
        directoryOf(user('TEAM_MEMBER'), 'ACTIVE', 'individual'),
        policy,
      ),
    ).resolves.toMatchObject({ teamDataPolicy: 'individual' });
  });
});
