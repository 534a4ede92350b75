// The dispatch map of a domain Lambda is typed by the route table (shared/definitions/api/routes.ts): a route missing from the
// map, or a key the table does not have for that domain, is a compile error. `npm run typecheck` checks the
// expected errors below (an expected error that does not occur is itself an error); vitest runs the maps.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { dispatch, type DispatchMap } from '#functions/lib/dispatch.ts';
import type { ApiHandler } from '#functions/lib/http-handler.ts';
import type { DomainRouteKey } from '#shared/definitions/api/routes.ts';

const ok: ApiHandler = async () => ({ statusCode: 200, body: '{}' });
const request = (httpMethod: string, resource: string) => ({ httpMethod, resource }) as APIGatewayProxyEvent;

describe('dispatch maps typed by the route table', () => {
  it("derives a domain's keys from its routes and no other domain's", () => {
    expectTypeOf<DomainRouteKey<'health'>>().toEqualTypeOf<'GET /api/health' | 'GET /api/openapi.json'>();
    expectTypeOf<DomainRouteKey<'reports'>>().toEqualTypeOf<'GET /api/reports' | 'POST /api/reports/recount'>();
    expectTypeOf<DispatchMap<'reports'>>().toEqualTypeOf<
      Record<'GET /api/reports' | 'POST /api/reports/recount', ApiHandler>
    >();
  });

  it('refuses a map that misses a route of the domain', () => {
    // @ts-expect-error 'GET /api/openapi.json' is a health route the map lacks.
    const route = dispatch<'health'>({ 'GET /api/health': ok });
    expect(typeof route).toBe('function');
  });

  it('refuses a key the table does not have for the domain', () => {
    const route = dispatch<'health'>({
      'GET /api/health': ok,
      'GET /api/openapi.json': ok,
      // @ts-expect-error no such route in the table.
      'GET /api/healthz': ok,
    });
    expect(typeof route).toBe('function');
  });

  it("refuses another domain's route", () => {
    const route = dispatch<'reports'>({
      'GET /api/reports': ok,
      'POST /api/reports/recount': ok,
      // @ts-expect-error a usage route, served by the usage Lambda.
      'GET /api/usage': ok,
    });
    expect(typeof route).toBe('function');
  });

  it('dispatches a complete map and answers 404 for anything else', async () => {
    const route = dispatch<'reports'>({ 'GET /api/reports': ok, 'POST /api/reports/recount': ok });
    const context = {} as Context;
    expect((await route(request('GET', '/api/reports'), context)).statusCode).toBe(200);
    const missing = await route(request('GET', '/api/usage'), context);
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('ENDPOINT_NOT_IMPLEMENTED');
  });
});
