import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDefinition } from '#shared/api/routes.ts';
import { parseGroups, primaryRole, type Caller } from '#shared/domain/access/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { AccessDeniedError, UnauthorizedError } from '#shared/domain/errors.ts';

/**
 * The caller, from the claims API Gateway's Cognito authorizer verified (the local twin's router verifies the
 * same token and fills the same place) and from the user record. Nothing comes from the body or the path.
 * API Gateway's authorizer does not look at groups, so the route's roles gate is applied here.
 */
export async function resolveCaller(
  event: APIGatewayProxyEvent,
  route: RouteDefinition,
  directory: Directory,
): Promise<Caller> {
  const claims = (event.requestContext?.authorizer?.claims ?? {}) as Record<string, unknown>;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  const hospitalId = typeof claims['custom:hospitalId'] === 'string' ? claims['custom:hospitalId'] : undefined;
  if (!sub || !hospitalId) throw new UnauthorizedError('NO_TOKEN');

  const user = await directory.getUser(hospitalId, sub);
  if (!user) throw new UnauthorizedError('INVALID_CREDENTIALS');
  if (user.status === 'DISABLED') throw new AccessDeniedError();

  // The token's group must agree with the record: a demoted user's old token no longer carries the old role.
  const groups = parseGroups(claims['cognito:groups']);
  if (primaryRole(groups) !== user.role) throw new AccessDeniedError();
  if (route.roles && !route.roles.includes(user.role)) throw new AccessDeniedError();

  return {
    userId: user.id,
    email: user.email,
    hospitalId: user.hospitalId,
    teamId: user.teamId,
    role: user.role,
    permissions: user.permissions,
    firstName: user.firstName,
    lastName: user.lastName,
  };
}
