import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { JWTPayload } from 'jose';
import { allowedMethods, matchRoute, type ApiDomain, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { DICOMWEB_SCOPES } from '#shared/vocabulary/integrations.ts';
import {
  gatewayErrorBody,
  gatewayErrorStatus,
  MAX_REQUEST_BODY_BYTES,
  type GatewayError,
} from '#shared/definitions/api/gateway-errors.ts';

/**
 * The local stand-in for API Gateway (REST, Lambda proxy integration) + its Cognito authorizer: matches the route
 * table, verifies the ID token for `auth: 'user'` routes, builds the proxy event and calls the domain's handler, the
 * same file the cloud's Lambda runs. The route's role gate is the handler's job (functions/lib), as in the cloud.
 */

type ProxyResult = {
  statusCode: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, (string | number | boolean)[]>;
  body?: string;
  isBase64Encoded?: boolean;
};

export type ApiOptions = {
  /** Runs the domain's function (functions/<domain>/handler.ts) on the event, as Lambda would. */
  invoke(domain: ApiDomain, event: unknown, requestId: string): Promise<unknown>;
  verifyIdToken(token: string): Promise<JWTPayload | undefined>;
  /** Access tokens of app clients (client-credentials grant), for `client` routes (DICOMweb). */
  verifyAccessToken(token: string): Promise<JWTPayload | undefined>;
  /** Extra checks of the twin's own services for /api/health (the handler checks the table and buckets). */
  localHealth(): Promise<string[]>;
  siteOrigin: string;
  log: (line: string) => void;
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** What API Gateway answers itself (its gateway responses), from the same table the cloud stack reads. */
function sendGatewayError(
  res: ServerResponse,
  error: GatewayError,
  headers: Record<string, string> = {},
  status = gatewayErrorStatus(error),
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(gatewayErrorBody(error));
}

/**
 * What the front door answers a request it cannot read (Node's `clientError`): a request line and headers over the
 * header limit get 431 with the catalogue's body, as the gateway's DEFAULT_4XX response gives one, instead of Node's
 * bare 431; a request that timed out 408, anything else unreadable 400, both with the catalogue's body.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, gatewayError]: [number, string, GatewayError] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [gatewayErrorStatus('headersTooLarge'), 'Request Header Fields Too Large', 'headersTooLarge']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'rejected']
        : [400, 'Bad Request', 'rejected'];
  const body = gatewayErrorBody(gatewayError);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_REQUEST_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Bodies passed as text; everything else (multipart/related of DICOM) is base64, as the gateway's binary media types. */
const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|[\w.+-]+\+json)|text\/)/i;

/** Claims as the Cognito authorizer hands them to a REST API Lambda: every value a string, groups comma-separated. */
export function claimsAsStrings(payload: JWTPayload): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (match?.[1] ?? header).trim() || undefined;
}

export function createApi(options: ApiOptions) {
  const corsHeaders = {
    'access-control-allow-origin': options.siteOrigin,
    'access-control-allow-headers': 'authorization,content-type',
    'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
  };

  async function invoke(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    route: RouteDefinition,
    pathParameters: Record<string, string>,
    claims?: Record<string, string>,
  ) {
    const body = await readBody(req);
    if (body === 'too-large') {
      sendGatewayError(res, 'bodyTooLarge', corsHeaders);
      return;
    }
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const value = req.rawHeaders[i + 1]!;
      headers[name] = value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      (multiQuery[name] ??= []).push(value);
    }
    const contentType = req.headers['content-type'] ?? '';
    const isText = body.length === 0 || TEXT_TYPES.test(contentType);
    const requestId = randomUUID();
    const event = {
      resource: route.path,
      path: url.pathname,
      httpMethod: route.method,
      headers,
      multiValueHeaders,
      queryStringParameters: url.searchParams.size > 0 ? query : null,
      multiValueQueryStringParameters: url.searchParams.size > 0 ? multiQuery : null,
      pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
      stageVariables: null,
      body: body.length === 0 ? null : isText ? body.toString('utf8') : body.toString('base64'),
      isBase64Encoded: !isText,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        resourceId: 'local',
        resourcePath: route.path,
        httpMethod: route.method,
        path: `/local${url.pathname}`,
        stage: 'local',
        requestId,
        extendedRequestId: requestId,
        requestTimeEpoch: Date.now(),
        protocol: 'HTTP/1.1',
        identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? null },
        ...(claims ? { authorizer: { claims } } : {}),
      },
    };
    let result: ProxyResult;
    try {
      result = (await options.invoke(route.domain, event, requestId)) as ProxyResult;
    } catch (error) {
      // Never the message: it may carry request data. The name and the request id are enough to find it.
      options.log(
        `handler of ${route.domain} failed on ${route.method} ${route.path}: ${error instanceof Error ? error.name : 'error'} (request ${requestId})`,
      );
      // As API Gateway: a function that timed out is 504, one that failed (error, out of memory) 502.
      const timedOut = error instanceof Error && error.name === 'Sandbox.Timedout';
      sendGatewayError(res, 'integrationFailure', corsHeaders, timedOut ? 504 : 502);
      return;
    }
    const responseHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
      responseHeaders[name] = values.map(String);
    const payload =
      result.body === undefined
        ? Buffer.alloc(0)
        : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
    res.writeHead(result.statusCode, responseHeaders);
    res.end(payload);
  }

  return async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, { ...corsHeaders, 'access-control-max-age': '600' });
      res.end();
      return;
    }
    // API Gateway refuses an oversized payload at the door, before routing or the authorizer.
    if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES) {
      req.resume();
      sendGatewayError(res, 'bodyTooLarge', corsHeaders);
      return;
    }
    const matched = matchRoute(req.method ?? 'GET', url.pathname);
    if (!matched) {
      req.resume();
      // A known path asked with another method: 405 with the methods the route table has for it (RFC 9110 15.5.6).
      const allowed = allowedMethods(url.pathname);
      if (allowed.length > 0) sendGatewayError(res, 'methodNotAllowed', { ...corsHeaders, allow: allowed.join(', ') });
      else sendGatewayError(res, 'unknownRoute', corsHeaders);
      return;
    }
    if (matched.route.path === '/api/health') {
      const failing = await options.localHealth();
      if (failing.length > 0) {
        req.resume();
        sendJson(res, 503, { status: 'unavailable', failing }, corsHeaders);
        return;
      }
    }
    let claims: Record<string, string> | undefined;
    if (matched.route.auth === 'user') {
      const token = bearerToken(req.headers.authorization);
      const payload = token ? await options.verifyIdToken(token) : undefined;
      if (!payload) {
        req.resume();
        sendGatewayError(res, 'unauthorized', corsHeaders);
        return;
      }
      claims = claimsAsStrings(payload);
    }
    if (matched.route.auth === 'client') {
      // As the gateway's Cognito authorizer with authorization scopes: an access token carrying any DICOMweb scope; the
      // handler checks the route's own (docs/dicom-intake.md#dicomweb-clients).
      const token = bearerToken(req.headers.authorization);
      const payload = token ? await options.verifyAccessToken(token) : undefined;
      const granted = new Set(String(payload?.scope ?? '').split(' '));
      if (!payload || !Object.values(DICOMWEB_SCOPES).some((scope) => granted.has(scope))) {
        req.resume();
        sendGatewayError(res, 'unauthorized', corsHeaders);
        return;
      }
      claims = claimsAsStrings(payload);
    }
    // `scim` routes pass as the gateway passes them, without claims: their handler checks the SCIM token itself.
    await invoke(req, res, url, matched.route, matched.pathParameters, claims);
  };
}
