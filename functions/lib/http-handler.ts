import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { z } from 'zod';
import { ROUTE_SCHEMAS, type RouteSchemas } from '#shared/definitions/api/route-schemas.ts';
import { ROUTES, routeKey, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { type DomainError, UnauthorizedError, ValidationError } from '#shared/domain/errors.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { requireScopes } from '#shared/domain/integrations/scopes.ts';
import { resolveCaller, tokenPolicyOf } from './caller.ts';
import { twoFactorPolicyOf } from './two-factor.ts';
import { getDeps, type ServerDeps } from './deps.ts';
import { serverEnv } from './env.ts';
import { toHttpError } from './errors.ts';
import { errorOrigin, logger, powertoolsLogger } from './logger.ts';
import { count, flushMetrics } from './metrics.ts';
import { tracer } from './tracer.ts';

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export type HttpRequest<B, Q, P> = { body: B; query: Q; pathParameters: P; event: APIGatewayProxyEvent };

/** A non-200 success (201, 204) or a non-JSON body. */
export class HttpReply {
  constructor(
    readonly statusCode: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A success whose body is text sent as it is (a CSV export), with its content type. */
export class TextReply extends HttpReply {
  constructor(
    readonly text: string,
    contentType: string,
    headers: Record<string, string> = {},
  ) {
    super(200, undefined, { 'Content-Type': contentType, ...headers });
  }
}

/** A success whose body is bytes (a WADO-RS multipart answer), sent base64-encoded through the proxy integration. */
export class BinaryReply extends HttpReply {
  constructor(
    statusCode: number,
    readonly bytes: Uint8Array,
    contentType: string,
    headers: Record<string, string> = {},
  ) {
    super(statusCode, undefined, { 'Content-Type': contentType, ...headers });
  }
}

type Schemas = {
  body?: z.ZodType;
  query?: z.ZodType;
  path?: z.ZodType;
  /** Turns specific schema issues into a catalogue error (e.g. too many files → TOO_MANY_FILES). */
  mapIssues?: (issues: z.core.$ZodIssue[], raw: unknown) => DomainError | undefined;
};

type Internal = {
  request?: HttpRequest<unknown, unknown, unknown>;
  caller?: Caller;
  deps?: ServerDeps;
  route: RouteDefinition;
};

function findRoute(key: string): RouteDefinition {
  const route = (ROUTES as readonly RouteDefinition[]).find((r) => routeKey(r) === key);
  if (!route) throw new Error(`No route ${key} in shared/definitions/api/routes.ts`);
  return route;
}

function corsHeaders(): Record<string, string> {
  let origin: string | undefined;
  try {
    origin = serverEnv().SITE_ORIGIN;
  } catch {
    origin = undefined;
  }
  return origin
    ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Allow-Credentials': 'true' }
    : {};
}

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...corsHeaders(), ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

function parsePart<S extends z.ZodType>(schema: S | undefined, raw: unknown, mapIssues: Schemas['mapIssues']): unknown {
  if (!schema) return raw;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const mapped = mapIssues?.(result.error.issues, raw);
  if (mapped) throw mapped;
  throw new ValidationError(
    'VALIDATION_FAILED',
    {},
    result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  );
}

function parseBody(event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === undefined || event.body === '') return {};
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError();
  }
}

/** A route without query parameters takes none. */
const NO_QUERY = z.strictObject({});

/**
 * The route's query schema, closed: a parameter the route does not name is refused with VALIDATION_FAILED rather than
 * ignored, so a misspelt filter never silently widens a search (docs/api-contract.md).
 */
function closedQuery(schema: z.ZodType | undefined): z.ZodType {
  if (!schema) return NO_QUERY;
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

/** Parses body, query and path with the route's zod schemas. */
function parser(
  schemas: Schemas,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> {
  return {
    before: (request) => {
      const event = request.event;
      request.internal.request = {
        event,
        body: parsePart(schemas.body, schemas.body ? parseBody(event) : undefined, schemas.mapIssues),
        query: parsePart(closedQuery(schemas.query), event.queryStringParameters ?? {}, schemas.mapIssues),
        pathParameters: parsePart(schemas.path, event.pathParameters ?? {}, undefined),
      };
    },
  };
}

/** Caller context from the verified claims + the user record, then the route's roles gate. */
function authorizer(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> {
  return {
    before: async (request) => {
      const deps = (request.internal.deps ??= await getDeps());
      if (request.internal.route.auth === 'public') return;
      request.internal.caller = await resolveCaller(
        request.event,
        request.internal.route,
        deps.directory,
        tokenPolicyOf(serverEnv()),
        twoFactorPolicyOf(deps),
      );
    },
  };
}

function errorMapper(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal> {
  return {
    onError: (request) => {
      const { statusCode, body } = toHttpError(request.error);
      const fields = {
        route: routeKey(request.internal.route),
        hospitalId: request.internal.caller?.hospitalId,
        statusCode,
      };
      if (statusCode >= 500) {
        logger.error('request failed', { ...fields, ...errorOrigin(request.error) });
        count('ApiRequestsFailed');
      } else logger.info('request rejected', { ...fields, code: body.error.code });
      request.response = json(statusCode, body);
    },
  };
}

type RouteKeyWithSchemas = keyof typeof ROUTE_SCHEMAS;
type Part<K extends RouteKeyWithSchemas, N extends 'body' | 'query' | 'path'> =
  (typeof ROUTE_SCHEMAS)[K] extends Record<N, infer S extends z.ZodType> ? z.infer<S> : undefined;

/**
 * The one middy stack for API routes: error mapper (outermost), caller + role gate, parsing with the route's
 * schemas (shared/definitions/api/route-schemas.ts), then the domain function. It gets parsed input, the caller and the
 * ports, and returns the JSON body (sent with the route's success status) or an HttpReply.
 */
export function httpHandler<K extends RouteKeyWithSchemas>(
  key: K,
  fn: (
    request: HttpRequest<Part<K, 'body'>, Part<K, 'query'>, Part<K, 'path'>>,
    caller: Caller,
    deps: ServerDeps,
  ) => Promise<unknown>,
  options: { mapIssues?: Schemas['mapIssues'] } = {},
): ApiHandler {
  const route = findRoute(key);
  const schemas = ROUTE_SCHEMAS[key] as RouteSchemas;
  const status = schemas.status ?? 200;
  const core = async (_event: APIGatewayProxyEvent, _context: Context, { internal }: { internal: Internal }) => {
    const result = await fn(
      internal.request as HttpRequest<Part<K, 'body'>, Part<K, 'query'>, Part<K, 'path'>>,
      internal.caller!,
      internal.deps!,
    );
    if (result instanceof TextReply) return { ...json(200, undefined, result.headers), body: result.text };
    if (result instanceof HttpReply) return json(result.statusCode, result.body, result.headers);
    return json(status, status === 204 ? undefined : result);
  };
  return wrap(route, core, [
    authorizer(),
    parser({ body: schemas.body, query: schemas.query, path: schemas.path, mapIssues: options.mapIssues }),
  ]);
}

/**
 * Public routes with a contract (the invitee's link): parsed with the route's schemas like any other, no caller; the
 * domain function gets the parsed input and the ports.
 */
export function publicRouteHandler<K extends RouteKeyWithSchemas>(
  key: K,
  fn: (request: HttpRequest<Part<K, 'body'>, Part<K, 'query'>, Part<K, 'path'>>, deps: ServerDeps) => Promise<unknown>,
): ApiHandler {
  const route = findRoute(key);
  if (route.auth !== 'public') throw new Error(`${key} is not a public route`);
  const schemas = ROUTE_SCHEMAS[key] as RouteSchemas;
  const status = schemas.status ?? 200;
  const core = async (_event: APIGatewayProxyEvent, _context: Context, { internal }: { internal: Internal }) => {
    const result = await fn(
      internal.request as HttpRequest<Part<K, 'body'>, Part<K, 'query'>, Part<K, 'path'>>,
      internal.deps!,
    );
    if (result instanceof HttpReply) return json(result.statusCode, result.body, result.headers);
    return json(status, status === 204 ? undefined : result);
  };
  return wrap(route, core, [
    authorizer(),
    parser({ body: schemas.body, query: schemas.query, path: schemas.path, mapIssues: undefined }),
  ]);
}

/** The integration calling a `client` route, from its verified access token (docs/dicom-intake.md#dicomweb-clients). */
export type ClientRequest<P> = {
  event: APIGatewayProxyEvent;
  /** The body as sent (base64-decoded when the gateway passed it as binary). */
  body: Uint8Array;
  /** Query parameters, each with every value it was given. */
  query: Record<string, string[]>;
  pathParameters: P;
};

/**
 * The app client and the scopes of a Cognito access token. The gateway lets through an access token carrying any
 * DICOMweb scope; the route's own scopes are checked against it and the integration (requireScopes), 403 when lacking.
 */
export function clientTokenOf(event: APIGatewayProxyEvent): { clientId: string; granted: Set<string> } {
  const claims = (event.requestContext?.authorizer?.claims ?? {}) as Record<string, unknown>;
  const granted = new Set(
    String(claims.scope ?? '')
      .split(/\s+/)
      .filter(Boolean),
  );
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : '';
  if (claims.token_use !== 'access' || !clientId) throw new UnauthorizedError();
  return { clientId, granted };
}

/**
 * `client` routes (DICOMweb): the access token's app client must be an active DICOMweb client of a hospital (a revoked
 * one is refused at once, its token notwithstanding), and both the token and the integration must grant the route's
 * scopes (docs/dicom-intake.md#dicomweb-clients); the function gets the raw body and every query value, and
 * answers with a JSON body, an HttpReply or a BinaryReply.
 */
export function clientRouteHandler<K extends RouteKeyWithSchemas>(
  key: K,
  fn: (request: ClientRequest<Part<K, 'path'>>, integration: IntegrationRecord, deps: ServerDeps) => Promise<unknown>,
): ApiHandler {
  const route = findRoute(key);
  if (route.auth !== 'client') throw new Error(`${key} is not a client route`);
  const schemas = ROUTE_SCHEMAS[key] as RouteSchemas;
  const core = async (event: APIGatewayProxyEvent) => {
    const deps = await getDeps();
    const { clientId, granted } = clientTokenOf(event);
    const integration = await deps.integrations.byClientId(clientId);
    if (!integration || integration.kind !== 'DICOMWEB_CLIENT') throw new UnauthorizedError();
    requireScopes(route.scopes ?? [], granted, integration);
    await deps.integrations.touch(integration.hospitalId, integration.id, deps.clock.now());
    const query: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {}))
      query[name] = [...(values ?? [])];
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {}))
      if (!query[name] && value !== undefined) query[name] = [value];
    const raw = event.body ?? '';
    const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
    const result = await fn(
      {
        event,
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        query,
        pathParameters: parsePart(schemas.path, event.pathParameters ?? {}, undefined) as Part<K, 'path'>,
      },
      integration,
      deps,
    );
    if (result instanceof BinaryReply)
      return {
        statusCode: result.statusCode,
        headers: { 'Cache-Control': 'no-store', ...result.headers },
        body: Buffer.from(result.bytes).toString('base64'),
        isBase64Encoded: true,
      };
    if (result instanceof HttpReply) return json(result.statusCode, result.body, result.headers);
    return json(schemas.status ?? 200, result);
  };
  return wrap(route, core, []);
}

/**
 * `scim` routes (docs/sso.md#provisioning-scim): no Cognito caller; the function authenticates the hospital's SCIM
 * bearer token itself, answers in SCIM's own error schema (RFC 7644 3.12) and returns an HttpReply. Only an error it
 * did not answer reaches the catalogue's mapping (a 500).
 */
export function scimRouteHandler<K extends RouteKeyWithSchemas>(
  key: K,
  fn: (event: APIGatewayProxyEvent, pathParameters: Part<K, 'path'>, deps: ServerDeps) => Promise<HttpReply>,
): ApiHandler {
  const route = findRoute(key);
  if (route.auth !== 'scim') throw new Error(`${key} is not a SCIM route`);
  const core = async (event: APIGatewayProxyEvent) => {
    const deps = await getDeps();
    const result = await fn(event, (event.pathParameters ?? {}) as Part<K, 'path'>, deps);
    return json(result.statusCode, result.body, result.headers);
  };
  return wrap(route, core, []);
}

/** Public routes (health, OpenAPI): no caller, same error mapping and headers. */
export function publicHttpHandler(
  key: string,
  fn: (event: APIGatewayProxyEvent, deps: () => Promise<ServerDeps>) => Promise<unknown>,
): ApiHandler {
  const route = findRoute(key);
  const core = async (event: APIGatewayProxyEvent) => {
    parsePart(NO_QUERY, event.queryStringParameters ?? {}, undefined);
    const result = await fn(event, getDeps);
    return result instanceof HttpReply ? json(result.statusCode, result.body, result.headers) : json(200, result);
  };
  return wrap(route, core, []);
}

// Middy hands the handler only (event, context): the per-request state is found by its event object, which is
// unique per invocation (a module variable would mix up concurrent requests in a host that runs several in one process).
const requests = new WeakMap<APIGatewayProxyEvent, Internal>();

function wrap(
  route: RouteDefinition,
  core: (
    event: APIGatewayProxyEvent,
    context: Context,
    extra: { internal: Internal },
  ) => Promise<APIGatewayProxyResult>,
  middlewares: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal>[],
): ApiHandler {
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal>({
    timeoutEarlyInMillis: 0,
  })
    // Observability (docs/observability.md), outermost: the Lambda context on every log line (request id, cold
    // start), never the event; a traced handler that records no response; the invocation's metrics flushed last.
    .use(injectLambdaContext(powertoolsLogger, { resetKeys: true, logEvent: false }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(flushMetrics())
    .use({
      before: (request) => {
        request.internal.route = route;
        requests.set(request.event, request.internal);
        // API Gateway's request id ties our lines to its access log; the route names what was asked, without values.
        const correlationId = request.event.requestContext?.requestId;
        if (correlationId) powertoolsLogger.setCorrelationId(correlationId);
        powertoolsLogger.appendKeys({ route: routeKey(route) });
      },
    })
    .use(errorMapper())
    .use(middlewares)
    .handler((event, context) => core(event, context, { internal: requests.get(event)! }));
  return (event, context) => stack({ ...event }, context ?? ({} as Context)) as Promise<APIGatewayProxyResult>;
}
