import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDefinition } from '#shared/definitions/api/routes.ts';
import { parseGroups, primaryRole, type Caller } from '#shared/domain/auth/caller.ts';
import { hasMfa, isIdTokenFor, MFA_ROLES, userPoolIssuer, type TokenPolicy } from '#shared/domain/auth/id-token.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { TwoFactorPolicy } from '#shared/domain/settings/two-factor.ts';
import { AccessDeniedError, MfaRequiredError, RuleError, UnauthorizedError } from '#shared/domain/errors.ts';
import type { ServerEnv } from './env.ts';

/**
 * What the deployment's tokens must carry: issued by its user pool (under COGNITO_ENDPOINT's issuer when an endpoint
 * is set, see userPoolIssuer) to its site client; in prod, the super admin, hospital admins and team leads must have
 * signed in with MFA.
 * Without a pool or client id nothing can be checked, so nothing is let in.
 */
export function tokenPolicyOf(env: ServerEnv): TokenPolicy {
  const poolId = env.USER_POOL_ID;
  const clientId = env.USER_POOL_CLIENT_ID;
  if (!poolId || !clientId) throw new Error('USER_POOL_ID and USER_POOL_CLIENT_ID must be set to check tokens');
  return {
    issuer: userPoolIssuer(poolId, env.AWS_REGION, env.COGNITO_ENDPOINT),
    audience: clientId,
    mfaRequiredFor: env.STAGE === 'prod' ? MFA_ROLES : [],
  };
}

/**
 * The caller, from the claims API Gateway's Cognito authorizer verified (requestContext.authorizer.claims) and
 * from the user record. Nothing comes from the body or the path.
 * API Gateway's authorizer does not look at groups, audience or token use, so those gates are applied here.
 * Where the hospital's policy requires two-factor, a token without a second factor is refused for every one of its
 * users (docs/domain.md#two-factor-policy).
 */
export async function resolveCaller(
  event: APIGatewayProxyEvent,
  route: RouteDefinition,
  directory: Directory,
  policy: TokenPolicy,
  twoFactor?: Pick<TwoFactorPolicy, 'requiredFor'>,
): Promise<Caller> {
  const claims = (event.requestContext?.authorizer?.claims ?? {}) as Record<string, unknown>;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  const hospitalId = typeof claims['custom:hospitalId'] === 'string' ? claims['custom:hospitalId'] : undefined;
  if (!sub || !hospitalId) throw new UnauthorizedError('NO_TOKEN');
  if (!isIdTokenFor(claims, policy)) throw new UnauthorizedError('INVALID_CREDENTIALS');

  // The user is stored under the token's hospital, so both are read at once.
  const [user, hospital] = await Promise.all([directory.getUser(hospitalId, sub), directory.getHospital(hospitalId)]);
  if (!user) throw new UnauthorizedError('INVALID_CREDENTIALS');
  // Invited users have not accepted yet and disabled ones are out: only active accounts are served.
  if (user.status !== 'ACTIVE') throw new AccessDeniedError();
  // A deactivated (deleted) hospital's users are out, whatever their own status (docs/states.md#hospitals).
  if (hospital?.status === 'DEACTIVATED') throw new RuleError('HOSPITAL_DEACTIVATED');

  // The token's group must agree with the stored user: a demoted user's old token no longer carries the old role.
  const groups = parseGroups(claims['cognito:groups']);
  if (primaryRole(groups) !== user.role) throw new AccessDeniedError();
  if (!hasMfa(claims)) {
    if (policy.mfaRequiredFor.includes(user.role)) throw new MfaRequiredError();
    if (user.role !== 'SUPER_ADMIN' && twoFactor && (await twoFactor.requiredFor(user.hospitalId)))
      throw new MfaRequiredError();
  }
  if (route.roles && !route.roles.includes(user.role)) throw new AccessDeniedError();
  // The team's data policy decides whether a member sees their teammates' datasets (docs/domain.md#teams), its guest
  // access whether a guest sees anything.
  const team = user.teamId ? await directory.getTeam(user.hospitalId, user.teamId) : undefined;

  return {
    userId: user.id,
    email: user.email,
    hospitalId: user.hospitalId,
    teamId: user.teamId,
    role: user.role,
    permissions: user.permissions,
    firstName: user.firstName,
    lastName: user.lastName,
    ...(team?.dataPolicy ? { teamDataPolicy: team.dataPolicy } : {}),
    // The team's "Allow guest access" switch, read with the team like its data policy (docs/domain.md#share-policy).
    ...(team?.settings?.allowGuestAccess === false ? { teamGuestAccess: false } : {}),
    secondFactor: hasMfa(claims),
    ...(claims.identities ? { federated: true } : {}),
    ...(hospital ? { hospitalName: hospital.name } : {}),
  };
}
