import SCIMMY from 'scimmy';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpReply } from '#functions/lib/http-handler.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import {
  AccessDeniedError,
  ConflictError,
  DomainError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '#shared/domain/errors.ts';
import {
  createScimUser,
  deactivateScimUser,
  findScimUserByUserName,
  getScimUser,
  listScimUsers,
  SCIM_MAX_RESULTS,
  updateScimUser,
  type ScimUserFields,
} from '#shared/domain/scim/provisioning.ts';
import { authenticateScim, type ScimActor } from '#shared/domain/scim/tokens.ts';

/**
 * SCIM 2.0 (RFC 7643/7644) over the provisioning core, with the scimmy library doing the protocol: schema
 * validation of User bodies, filters, PatchOp application, the discovery resources and the error message. The
 * library's resources are declared once per process; each request hands its token's hospital and the ports in the
 * context, so nothing of one request stays for the next.
 */

export const SCIM_CONTENT_TYPE = 'application/scim+json';
const BASE_PATH = '/scim/v2';

export type ScimContext = { actor: ScimActor; deps: ServerDeps };

/** Our user as a SCIM User (RFC 7643 4.1): userName is the e-mail, active is "not disabled". */
export function toScimUser(user: UserRecord) {
  return {
    id: user.id,
    userName: user.email,
    name: {
      givenName: user.firstName,
      familyName: user.lastName,
      formatted: `${user.firstName} ${user.lastName}`.trim(),
    },
    displayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: user.status !== 'DISABLED',
    meta: { created: user.createdAt, lastModified: user.updatedAt ?? user.createdAt },
  };
}

type ScimUserIn = {
  userName?: string;
  externalId?: string;
  active?: boolean;
  name?: { givenName?: string; familyName?: string };
  emails?: { value?: string; primary?: boolean }[];
};

/** The fields of a validated SCIM User; the e-mail is userName, else the primary (or first) e-mail. */
function fieldsOf(instance: ScimUserIn): ScimUserFields {
  const email = instance.emails?.find((e) => e.primary)?.value ?? instance.emails?.[0]?.value;
  const userName = instance.userName?.includes('@') ? instance.userName : (email ?? instance.userName ?? '');
  return {
    userName,
    givenName: instance.name?.givenName ?? '',
    familyName: instance.name?.familyName ?? '',
    active: instance.active ?? true,
    ...(instance.externalId ? { externalId: instance.externalId } : {}),
  };
}

/** The one `userName eq "..."` comparison identity providers look a user up with (RFC 7644 3.4.2.2). */
function userNameOf(filter: unknown): string | undefined {
  if (!Array.isArray(filter) || filter.length !== 1) return undefined;
  const expression = filter[0] as Record<string, unknown>;
  const keys = Object.keys(expression);
  if (keys.length !== 1 || keys[0]!.toLowerCase() !== 'username') return undefined;
  const [op, value] = expression[keys[0]!] as [string, unknown];
  return op === 'eq' && typeof value === 'string' ? value : undefined;
}

let declared = false;

/** Declares the User resource (with the enterprise extension Entra ID sends) and the service provider's features. */
export function declareScim(): void {
  if (declared) return;
  declared = true;
  SCIMMY.Config.set({
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: true,
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    bulk: false,
    changePassword: false,
    sort: false,
    etag: false,
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "A hospital's SCIM token in the Authorization header (RFC 6750)",
        primary: true,
      },
    ],
  });
  const user = SCIMMY.Resources.declare(SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false));
  user.basepath(BASE_PATH);
  user
    .egress(async (resource, ctx: ScimContext) =>
      scimmed(async () => {
        if (resource.id) return toScimUser(await getScimUser(ctx.actor, resource.id, ctx.deps));
        if (resource.filter) {
          const userName = userNameOf(resource.filter);
          if (userName === undefined)
            throw new SCIMMY.Types.Error(400, 'invalidFilter', 'Only the filter userName eq "<e-mail>" is supported');
          return (await findScimUserByUserName(ctx.actor, userName, ctx.deps)).map(toScimUser);
        }
        return [];
      }),
    )
    .ingress(async (resource, instance, ctx: ScimContext) =>
      scimmed(async () => {
        const fields = fieldsOf(instance as ScimUserIn);
        const user = resource.id
          ? await updateScimUser(ctx.actor, resource.id, fields, ctx.deps)
          : await createScimUser(ctx.actor, fields, ctx.deps);
        return toScimUser(user);
      }),
    )
    .degress(async (resource, ctx: ScimContext) =>
      scimmed(async () => {
        await deactivateScimUser(ctx.actor, resource.id!, ctx.deps);
      }),
    );
  // Groups are answered by groups.ts from the role mapping; declared so that discovery lists them (RFC 7643 6).
  SCIMMY.Resources.declare(SCIMMY.Resources.Group).basepath(BASE_PATH);
}

/** A header of the request, whatever its case. */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The hospital of the request's bearer token (RFC 6750 2.1), or an UnauthorizedError. */
export async function actorOf(event: APIGatewayProxyEvent, deps: ServerDeps): Promise<ScimActor> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(event, 'authorization') ?? '');
  return await authenticateScim(match?.[1], deps);
}

export function scimReply(status: number, body?: unknown, headers: Record<string, string> = {}): HttpReply {
  return new HttpReply(status, body, { 'Content-Type': SCIM_CONTENT_TYPE, ...headers });
}

/**
 * A domain error as SCIM's error (RFC 7644 3.12): its status and, where one applies, its scimType. The library
 * answers a handler's error of its own type as it is, and any other as a 404, so handlers throw these.
 */
export function asScimError(error: unknown): unknown {
  const scimError = (status: number, scimType: string | null, detail: string) =>
    new SCIMMY.Types.Error(status, scimType as string, detail);
  if (error instanceof SCIMMY.Types.Error) return error;
  if (error instanceof UnauthorizedError) return scimError(401, null, 'A valid SCIM token is required');
  if (error instanceof NotFoundError) return scimError(404, null, 'Resource not found');
  if (error instanceof ConflictError) return scimError(409, 'uniqueness', 'A user with this userName already exists');
  if (error instanceof AccessDeniedError) return scimError(403, null, 'Not allowed');
  if (error instanceof ValidationError && error.details === 'mutability')
    return scimError(400, 'mutability', 'The e-mail of an account that has signed in changes at the identity provider');
  if (error instanceof ValidationError) return scimError(400, 'invalidValue', 'A value is not valid');
  if (error instanceof DomainError) return scimError(400, 'invalidValue', error.code);
  // Malformed JSON and the library's own type errors about a body.
  if (error instanceof SyntaxError || error instanceof TypeError) return scimError(400, 'invalidSyntax', error.message);
  return error;
}

/** Runs a resource handler of the library, its domain errors thrown as SCIM errors. */
async function scimmed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw asScimError(error);
  }
}

/** RFC 7644 3.12: the error message with its status and scimType; a 401 names the Bearer scheme (RFC 6750 3). */
export function scimError(error: unknown): HttpReply {
  const mapped = asScimError(error);
  if (!(mapped instanceof SCIMMY.Types.Error)) throw mapped;
  const { status, scimType, message } = mapped;
  return scimReply(
    status,
    new SCIMMY.Messages.Error({ status, ...(scimType ? { scimType } : {}), detail: message } as never),
    status === 401 ? { 'WWW-Authenticate': 'Bearer realm="scim"' } : {},
  );
}

/** The request's JSON body; a body that is not JSON is SCIM's invalidSyntax. */
export function bodyOf(event: APIGatewayProxyEvent): Record<string, unknown> {
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw || '{}');
  } catch {
    throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'The body is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'The body is not a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * Entra ID sends booleans of a PATCH as the strings "True" and "False" (and `active` inside a path-less value
 * object): they are read as the booleans they mean before the library, which types `active` strictly, sees them.
 */
export function normalisePatch(body: Record<string, unknown>): Record<string, unknown> {
  const asBoolean = (v: unknown) =>
    typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v;
  const operations = Array.isArray(body.Operations) ? (body.Operations as Record<string, unknown>[]) : undefined;
  if (!operations) return body;
  return {
    ...body,
    Operations: operations.map((op) => {
      const opName = typeof op.op === 'string' ? op.op.toLowerCase() : op.op;
      if (typeof op.path === 'string' && op.path.toLowerCase() === 'active')
        return { ...op, op: opName, value: asBoolean(op.value) };
      if (!op.path && op.value && typeof op.value === 'object' && !Array.isArray(op.value)) {
        const value = Object.fromEntries(
          Object.entries(op.value as Record<string, unknown>).map(([k, v]) => [
            k,
            k.toLowerCase() === 'active' ? asBoolean(v) : v,
          ]),
        );
        return { ...op, op: opName, value };
      }
      return { ...op, op: opName };
    }),
  };
}

/** startIndex and count of a list (RFC 7644 3.4.2.4): 1-based, count at most the largest page. */
export function pagingOf(event: APIGatewayProxyEvent): { startIndex: number; count: number } {
  const query = event.queryStringParameters ?? {};
  const startIndex = Math.max(1, Number.parseInt(query.startIndex ?? '1', 10) || 1);
  const asked = Number.parseInt(query.count ?? String(SCIM_MAX_RESULTS), 10);
  const count = Math.min(Math.max(Number.isNaN(asked) ? SCIM_MAX_RESULTS : asked, 0), SCIM_MAX_RESULTS);
  return { startIndex, count };
}

/**
 * GET /Users: a `userName eq` filter reads the one user of that e-mail; otherwise a page from startIndex. The
 * hospital's total is not counted (that would read every user): totalResults tells how far the pages go, one more
 * than those read while users follow, so a client asking for the next page finds it.
 */
export async function listUsersReply(event: APIGatewayProxyEvent, ctx: ScimContext): Promise<HttpReply> {
  const { startIndex, count } = pagingOf(event);
  const filter = event.queryStringParameters?.filter;
  const attributes = {
    ...(event.queryStringParameters?.attributes ? { attributes: event.queryStringParameters.attributes } : {}),
    ...(event.queryStringParameters?.excludedAttributes
      ? { excludedAttributes: event.queryStringParameters.excludedAttributes }
      : {}),
  };
  if (filter) {
    const found = (await new SCIMMY.Resources.User(undefined, { filter, ...attributes }).read(
      ctx,
    )) as SCIMMY.Messages.ListResponse;
    const Resources = found.Resources.slice(startIndex - 1, startIndex - 1 + count);
    return scimReply(200, { ...found, Resources, startIndex, itemsPerPage: Resources.length });
  }
  const page = await listScimUsers(ctx.actor, startIndex, count, ctx.deps);
  const Resources = page.items.map((user) => new SCIMMY.Schemas.User(toScimUser(user), 'out', BASE_PATH));
  const read = startIndex - 1 + Resources.length;
  return scimReply(200, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: page.more ? read + 1 : read,
    startIndex,
    itemsPerPage: Resources.length,
    Resources,
  });
}
