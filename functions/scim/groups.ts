import SCIMMY from 'scimmy';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { HttpReply } from '#functions/lib/http-handler.ts';
import {
  changeScimGroupMembers,
  getScimGroup,
  listScimGroups,
  scimGroupMembers,
  type ScimGroup,
} from '#shared/domain/scim/provisioning.ts';
import { bodyOf, pagingOf, scimReply, type ScimContext } from './protocol.ts';

/**
 * SCIM Groups (RFC 7643 4.2) are the hospital's role groups (docs/sso.md#provisioning-scim): listed from the SSO
 * role mapping, looked up by `displayName eq`, and their membership patched; a member's role follows the group.
 */

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

function toScimGroup(group: ScimGroup, members?: { value: string; display: string }[]) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    displayName: group.displayName,
    ...(members ? { members } : {}),
    meta: { resourceType: 'Group', location: `/scim/v2/Groups/${group.id}` },
  };
}

export async function listGroupsReply(event: APIGatewayProxyEvent, ctx: ScimContext): Promise<HttpReply> {
  const { startIndex, count } = pagingOf(event);
  let groups = await listScimGroups(ctx.actor, ctx.deps);
  const filter = event.queryStringParameters?.filter;
  if (filter) groups = new SCIMMY.Types.Filter(filter).match(groups) as ScimGroup[];
  const Resources = groups.slice(startIndex - 1, startIndex - 1 + count).map((g) => toScimGroup(g));
  return scimReply(200, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: groups.length,
    startIndex,
    itemsPerPage: Resources.length,
    Resources,
  });
}

export async function getGroupReply(id: string, event: APIGatewayProxyEvent, ctx: ScimContext): Promise<HttpReply> {
  const group = await getScimGroup(ctx.actor, id, ctx.deps);
  const excluded = (event.queryStringParameters?.excludedAttributes ?? '').toLowerCase().split(',');
  if (excluded.map((a) => a.trim()).includes('members')) return scimReply(200, toScimGroup(group));
  const members = (await scimGroupMembers(ctx.actor, group, ctx.deps)).map((u) => ({
    value: u.id,
    display: `${u.firstName} ${u.lastName}`.trim() || u.email,
  }));
  return scimReply(200, toScimGroup(group, members));
}

/** `members[value eq "<id>"]`, the path Okta removes a member with. */
const MEMBER_PATH = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

/**
 * PATCH of a group (RFC 7644 3.5.2): the message is checked by the library, then its member operations read in the
 * shapes Entra ID sends (`"path": "members"` with a list of `{ value }`, op "Add"/"Remove") and Okta sends (the same,
 * or `members[value eq "<id>"]` to remove). A replace of the group's own name with its name is accepted; any other
 * change of the group is refused, since the group is the mapping's.
 */
export async function patchGroupReply(id: string, event: APIGatewayProxyEvent, ctx: ScimContext): Promise<HttpReply> {
  const message = new SCIMMY.Messages.PatchOp(bodyOf(event) as never);
  const group = await getScimGroup(ctx.actor, id, ctx.deps);
  const add: string[] = [];
  const remove: string[] = [];
  const valuesOf = (value: unknown) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value])
      .map((v) => (v && typeof v === 'object' ? (v as { value?: unknown }).value : v))
      .filter((v): v is string => typeof v === 'string');
  for (const operation of message.Operations) {
    const op = String(operation.op).toLowerCase();
    const path = operation.path ?? '';
    const single = MEMBER_PATH.exec(path);
    if (path.toLowerCase() === 'members' && op === 'add') add.push(...valuesOf(operation.value));
    else if (path.toLowerCase() === 'members' && op === 'remove') remove.push(...valuesOf(operation.value));
    else if (single && op === 'remove') remove.push(single[1]!);
    else if (op === 'replace' && (path.toLowerCase() === 'displayname' || !path)) {
      const value = operation.value as unknown;
      const name = typeof value === 'string' ? value : (value as { displayName?: unknown } | undefined)?.displayName;
      if (name !== undefined && name !== group.displayName)
        throw new SCIMMY.Types.Error(400, 'mutability', "A group's name is the hospital's role mapping's");
    } else throw new SCIMMY.Types.Error(400, 'invalidPath', `Unsupported operation ${op} ${path}`.trim());
  }
  await changeScimGroupMembers(ctx.actor, id, { add, remove }, ctx.deps);
  return scimReply(204);
}
