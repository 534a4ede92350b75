import SCIMMY from 'scimmy';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { scimRouteHandler, type ApiHandler, type HttpReply } from '#functions/lib/http-handler.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { getGroupReply, listGroupsReply, patchGroupReply } from './groups.ts';
import {
  actorOf,
  bodyOf,
  declareScim,
  listUsersReply,
  normalisePatch,
  scimError,
  scimReply,
  type ScimContext,
} from './protocol.ts';

/**
 * The SCIM 2.0 endpoints (RFC 7644 3, docs/sso.md#provisioning-scim): each authenticates the bearer token to its
 * hospital first (401 otherwise), then answers in application/scim+json, errors in SCIM's error schema.
 */
type ScimKey = Parameters<typeof scimRouteHandler>[0];

function scimEndpoint(
  key: ScimKey,
  fn: (event: APIGatewayProxyEvent, id: string, ctx: ScimContext) => Promise<HttpReply>,
): ApiHandler {
  return scimRouteHandler(key, async (event, _path, deps: ServerDeps) => {
    declareScim();
    try {
      const actor = await actorOf(event, deps);
      return await fn(event, event.pathParameters?.id ?? '', { actor, deps });
    } catch (error) {
      return scimError(error);
    }
  });
}

const attributesOf = (event: APIGatewayProxyEvent) => {
  const q = event.queryStringParameters ?? {};
  return {
    ...(q.attributes ? { attributes: q.attributes } : {}),
    ...(q.excludedAttributes ? { excludedAttributes: q.excludedAttributes } : {}),
  };
};

export const serviceProviderConfig = scimEndpoint('GET /scim/v2/ServiceProviderConfig', async () =>
  scimReply(200, await new SCIMMY.Resources.ServiceProviderConfig().read()),
);

export const resourceTypes = scimEndpoint('GET /scim/v2/ResourceTypes', async () =>
  scimReply(200, await new SCIMMY.Resources.ResourceType().read()),
);

export const schemas = scimEndpoint('GET /scim/v2/Schemas', async () =>
  scimReply(200, await new SCIMMY.Resources.Schema().read()),
);

export const listUsers = scimEndpoint('GET /scim/v2/Users', async (event, _id, ctx) => listUsersReply(event, ctx));

export const getUser = scimEndpoint('GET /scim/v2/Users/{id}', async (event, id, ctx) =>
  scimReply(200, await new SCIMMY.Resources.User(id, attributesOf(event)).read(ctx)),
);

export const createUser = scimEndpoint('POST /scim/v2/Users', async (event, _id, ctx) => {
  const created = (await new SCIMMY.Resources.User().write(bodyOf(event), ctx)) as { id?: string };
  return scimReply(201, created, { Location: `/scim/v2/Users/${created.id ?? ''}` });
});

export const replaceUser = scimEndpoint('PUT /scim/v2/Users/{id}', async (event, id, ctx) =>
  scimReply(200, await new SCIMMY.Resources.User(id).write(bodyOf(event), ctx)),
);

export const patchUser = scimEndpoint('PATCH /scim/v2/Users/{id}', async (event, id, ctx) => {
  const patched = await new SCIMMY.Resources.User(id).patch(normalisePatch(bodyOf(event)) as never, ctx);
  // A PatchOp that changes nothing answers no resource (RFC 7644 3.5.2): the user as they are then.
  return scimReply(200, patched ?? (await new SCIMMY.Resources.User(id).read(ctx)));
});

export const deleteUser = scimEndpoint('DELETE /scim/v2/Users/{id}', async (_event, id, ctx) => {
  await new SCIMMY.Resources.User(id).dispose(ctx);
  return scimReply(204);
});

export const listGroups = scimEndpoint('GET /scim/v2/Groups', async (event, _id, ctx) => listGroupsReply(event, ctx));

export const getGroup = scimEndpoint('GET /scim/v2/Groups/{id}', async (event, id, ctx) =>
  getGroupReply(id, event, ctx),
);

export const patchGroup = scimEndpoint('PATCH /scim/v2/Groups/{id}', async (event, id, ctx) =>
  patchGroupReply(id, event, ctx),
);
