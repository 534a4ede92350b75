import { ssoRoute } from '#shared/domain/settings/sso.ts';
import { publicRouteHandler } from '#functions/lib/http-handler.ts';

/** The login page's e-mail step (docs/sso.md#domain-routing): limited per caller address, as the other public routes. */
export const handler = publicRouteHandler('GET /api/auth/sso-route', async ({ query, event }, deps) =>
  ssoRoute(
    query.email,
    { ip: event.requestContext?.identity?.sourceIp || 'unknown' },
    {
      sso: deps.sso,
      hostedLogin: deps.hostedLogin,
      hit: (key, windowSeconds, at) => deps.shares.hit(key, windowSeconds, at),
      clock: deps.clock,
    },
  ),
);
