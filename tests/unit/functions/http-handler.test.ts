import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import { setDeps } from '#functions/lib/deps.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { MissingResourceError, readEnv, requireResource, resetEnvCache } from '#functions/lib/env.ts';
import { handler as datasetsHandler } from '#functions/datasets/handler.ts';
import { handler as healthHandler } from '#functions/health/handler.ts';
import { handler as authHandler } from '#functions/auth/handler.ts';
import { ports } from '#tests/unit/domain/fakes.ts';

const lead: UserRecord = {
  id: 'sub-lead',
  email: 'lead@x.test',
  firstName: 'Jo',
  lastName: 'Lead',
  role: 'TEAM_LEAD',
  status: 'ACTIVE',
  hospitalId: 'h1',
  teamId: 't1',
  permissions: [...DEFAULT_PERMISSIONS.TEAM_LEAD],
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** What an ID token of the test pool's site client carries besides the user's own claims. */
const TOKEN = {
  token_use: 'id',
  aud: 'site-client',
  iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool',
};

function event(
  method: string,
  resource: string,
  options: {
    path?: string;
    body?: string;
    query?: Record<string, string>;
    claims?: Record<string, string> | null;
    pathParameters?: Record<string, string>;
  } = {},
): APIGatewayProxyEvent {
  const claims =
    options.claims === null
      ? undefined
      : {
          ...TOKEN,
          ...(options.claims ?? { sub: 'sub-lead', 'custom:hospitalId': 'h1', 'cognito:groups': '[TEAM_LEAD]' }),
        };
  return {
    httpMethod: method,
    resource,
    path: options.path ?? resource,
    body: options.body ?? null,
    isBase64Encoded: false,
    queryStringParameters: options.query ?? null,
    pathParameters: options.pathParameters ?? null,
    headers: {},
    requestContext: claims ? { requestId: 'gateway-request-1', authorizer: { claims } } : {},
  } as unknown as APIGatewayProxyEvent;
}

const context = {} as Context;
let deps: ServerDeps;
let failing: string[] = [];

beforeAll(() => {
  Object.assign(process.env, {
    TABLE_NAME: 't',
    UPLOADS_BUCKET: 'u',
    STUDIES_BUCKET: 's',
    ASSETS_BUCKET: 'a',
    AWS_REGION: 'eu-west-1',
    USER_POOL_ID: 'eu-west-1_Pool',
    USER_POOL_CLIENT_ID: 'site-client',
    SITE_ORIGIN: 'https://site.example',
    IWS_SILENT_LOGS: '1',
  });
  resetEnvCache();
  const p = ports();
  // The routes under test never reach the invitation ports.
  const unusedInvitationPorts = {} as Pick<
    ServerDeps,
    | 'invitations'
    | 'invitationDirectory'
    | 'mailer'
    | 'identity'
    | 'tokens'
    | 'siteOrigin'
    | 'shares'
    | 'shareLimits'
    | 'shareCodes'
    | 'integrations'
    | 'machineClients'
    | 'intake'
    | 'intakeEndpoints'
    | 'dicomIndex'
    | 'idempotency'
    | 'sso'
    | 'identityProviders'
    | 'fetchJson'
    | 'samlMetadata'
    | 'hostedLogin'
    | 'jobs'
    | 'jobStarter'
    | 'scimTokens'
    | 'digests'
  >;
  deps = {
    ...p,
    ...unusedInvitationPorts,
    directory: {
      getUser: async (h, id) => (h === 'h1' && id === lead.id ? lead : undefined),
      getHospital: async (h) =>
        h === 'h1' ? { id: 'h1', slug: 'h1', name: 'Hospital One', createdAt: '', updatedAt: '' } : undefined,
      getTeam: async () => ({
        id: 't1',
        hospitalId: 'h1',
        name: 'Team One',
        departmentId: 'd',
        description: '',
        createdAt: '',
      }),
      putHospital: async () => {},
      putDepartment: async () => {},
      putTeam: async () => {},
      putUser: async () => {},
      recordLogin: async () => {},
    },
    pseudonymSecret: async () => 'x',
    health: { failing: async () => failing },
    runSlots: { update: async () => Promise.reject(new Error('no pipeline in HTTP handler tests')) },
  } as ServerDeps;
  setDeps(deps);
});
afterAll(() => setDeps(undefined));
afterEach(() => vi.restoreAllMocks());

describe('the HTTP middy stack', () => {
  it('answers the caller from the user record with CORS for the site origin', async () => {
    const response = await authHandler(event('GET', '/api/me'), context);
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'Access-Control-Allow-Origin': 'https://site.example',
      'Content-Type': 'application/json',
    });
    expect(JSON.parse(response.body)).toMatchObject({
      user: { id: 'sub-lead', role: 'TEAM_LEAD' },
      hospital: { name: 'Hospital One' },
      team: { name: 'Team One' },
    });
  });

  it('answers 401 NO_TOKEN without claims, in the catalogue words', async () => {
    const response = await authHandler(event('GET', '/api/me', { claims: null }), context);
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'NO_TOKEN', message: 'No token found' } });
  });

  it('applies the route roles gate before the domain code', async () => {
    const response = await datasetsHandler(
      event('DELETE', '/api/datasets/{id}', {
        pathParameters: { id: 'x' },
        claims: { sub: 'sub-lead', 'custom:hospitalId': 'h1', 'cognito:groups': 'GUEST' },
      }),
      context,
    );
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body).error.message).toBe("You don't have permission to perform this action.");
  });

  it('rejects a malformed body and a schema violation with VALIDATION_FAILED and the field', async () => {
    const broken = await datasetsHandler(event('POST', '/api/datasets', { body: '{nope' }), context);
    expect(broken.statusCode).toBe(400);
    const invalid = await datasetsHandler(
      event('POST', '/api/datasets', { body: JSON.stringify({ studyType: 'X' }) }),
      context,
    );
    expect(invalid.statusCode).toBe(400);
    const body = JSON.parse(invalid.body);
    expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid input' });
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['mrn', 'studyType']),
    );
  });

  it('answers an unexpected failure with INTERNAL and logs neither the message nor the event', async () => {
    vi.spyOn(deps.datasets, 'list').mockRejectedValueOnce(new Error('Patient DOE^JOHN MRN 123'));
    // Powertools' Logger and Metrics write to the process's streams, not through the global console.
    const logs: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        logs.push(String(chunk));
        return true;
      });
    process.env.IWS_SILENT_LOGS = '0';
    const response = await datasetsHandler(event('GET', '/api/datasets'), {
      awsRequestId: 'lambda-request-1',
      functionName: 'imaging-test-DatasetsFunction',
    } as Context);
    process.env.IWS_SILENT_LOGS = '1';
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
    });
    const lines = logs
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'request failed',
        function_request_id: 'lambda-request-1',
        correlation_id: 'gateway-request-1',
        route: 'GET /api/datasets',
        hospitalId: 'h1',
        errorName: 'Error',
      }),
    );
    // The 5xx is counted in EMF, with the service as its only dimension.
    expect(lines).toContainEqual(expect.objectContaining({ ApiRequestsFailed: 1 }));
    expect(logs.join('\n')).not.toContain('DOE');
  });

  it('dispatches an unknown resource to ENDPOINT_NOT_IMPLEMENTED', async () => {
    const response = await datasetsHandler(event('PUT', '/api/datasets/{id}/unknown'), context);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe('ENDPOINT_NOT_IMPLEMENTED');
  });

  it('reports health 503 naming the failing service', async () => {
    failing = ['assets bucket'];
    const response = await healthHandler(event('GET', '/api/health', { claims: null }), context);
    failing = [];
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toEqual({ status: 'unavailable', failing: ['assets bucket'] });
    expect(JSON.parse((await healthHandler(event('GET', '/api/health', { claims: null }), context)).body)).toEqual({
      status: 'ok',
    });
  });

  it('keeps concurrent requests apart (per-request state is keyed by the event)', async () => {
    const results = await Promise.all([
      authHandler(event('GET', '/api/me'), context),
      authHandler(event('GET', '/api/me', { claims: null }), context),
      authHandler(event('GET', '/api/me'), context),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 401, 200]);
  });
});

describe('functions/lib/env', () => {
  it('reads only what a function is given; a resource without its variable fails on use, naming the variable', () => {
    const env = readEnv({ TABLE_NAME: 't', STUDIES_BUCKET: 's' });
    expect(env.STAGE).toBe('local');
    expect(requireResource(env, 'TABLE_NAME')).toBe('t');
    expect(() => requireResource(env, 'UPLOADS_BUCKET')).toThrow(MissingResourceError);
    expect(() => requireResource(env, 'PSEUDONYM_SECRET_ARN')).toThrow(/PSEUDONYM_SECRET_ARN is not set/);
  });
});
