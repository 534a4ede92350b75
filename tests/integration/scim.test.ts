import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/definitions/table/keys.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import type { Harness } from '#tests/integration/datasets-harness.ts';

/**
 * SCIM 2.0 provisioning through the real handlers and the DynamoDB adapters (docs/sso.md#provisioning-scim): a
 * hospital admin's token provisions users of that hospital only; the bodies are shaped as Microsoft Entra ID and
 * Okta send them; deactivation is the disable path (signed out everywhere, next request refused); every change is
 * audited with the token as the actor.
 */
const NORTHSIDE_ADMIN = 'admin@northside.demo.local';
const NORTHSIDE_MEMBER = 'member@northside.demo.local';
const NORTHSIDE_LEAD = 'lead@northside.demo.local';
const LAKEVIEW_ADMIN = 'admin@lakeview.demo.local';
const LAKEVIEW_MEMBER = 'member@lakeview.demo.local';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

const h = useHarness();

async function newToken(as: string, name: string): Promise<{ token: string; id: string }> {
  const created = await h.call('POST', '/api/hospital-admin/scim-tokens', { as, body: { name } });
  expect(created.status).toBe(201);
  return { token: created.body.token as string, id: created.body.item.id as string };
}

function scim(harness: Harness, token: string) {
  return (method: string, path: string, options: { body?: unknown; query?: Record<string, string> } = {}) =>
    harness.call(method, path, { ...options, headers: { Authorization: `Bearer ${token}` } });
}

async function auditActions(hospitalId: string, actorUserId: string): Promise<string[]> {
  const page = await h.deps.audit.search({ hospitalId, actorUserId, limit: 100 });
  return page.items.map((e) => e.action);
}

describe('SCIM tokens', () => {
  it('shows a token once, keeps only its SHA-256, lists it without the token, audits creation and revocation', async () => {
    // Arrange
    const hospitalId = h.user(NORTHSIDE_ADMIN).hospitalId;
    // Act
    const { token, id } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const listed = await h.call('GET', '/api/hospital-admin/scim-tokens', { as: NORTHSIDE_ADMIN });
    const { Item } = await h.table.doc.send(
      new GetCommand({ TableName: h.table.tableName, Key: keys.scimToken(hospitalId, id) }),
    );
    const before = await scim(h, token)('GET', '/scim/v2/ServiceProviderConfig');
    const revoked = await h.call('DELETE', `/api/hospital-admin/scim-tokens/${id}`, { as: NORTHSIDE_ADMIN });
    const after = await scim(h, token)('GET', '/scim/v2/Users');
    // Assert
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.items.find((t: { id: string }) => t.id === id)).toMatchObject({
      name: 'Entra ID',
      revokedAt: null,
    });
    expect(Item?.hash).toBe(h.deps.tokens.hash(token));
    expect(JSON.stringify(Item)).not.toContain(token);
    expect(before.status).toBe(200);
    expect(before.body.patch).toEqual({ supported: true });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    const actions = await auditActions(hospitalId, h.userId(NORTHSIDE_ADMIN));
    expect(actions).toEqual(expect.arrayContaining(['SCIM_TOKEN_CREATED', 'SCIM_TOKEN_REVOKED']));
  });

  it('refuses a request without a token or with an unknown one, in the SCIM error schema', async () => {
    // Act
    const none = await h.call('GET', '/scim/v2/Users');
    const unknown = await scim(h, 'not-a-token')('GET', '/scim/v2/Users');
    // Assert
    expect(none.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
  });

  it('is for hospital admins only', async () => {
    // Act
    const byLead = await h.call('POST', '/api/hospital-admin/scim-tokens', { as: NORTHSIDE_LEAD, body: { name: 'x' } });
    // Assert
    expect(byLead.status).toBe(403);
  });
});

describe('SCIM Users as Microsoft Entra ID sends them', () => {
  it('creates, finds by userName, patches the name, deactivates with PATCH active "False", all audited', async () => {
    // Arrange
    const hospitalId = h.user(NORTHSIDE_ADMIN).hospitalId;
    const { token, id: tokenId } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const call = scim(h, token);
    const email = 'new.radiographer@northside.demo.local';
    // Act: Entra ID first looks the user up, then creates them.
    const lookup = await call('GET', '/scim/v2/Users', {
      query: { filter: `userName eq "${email}"`, startIndex: '1', count: '1' },
    });
    const created = await call('POST', '/scim/v2/Users', {
      body: {
        schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: 'f5c6ad3e-2b8a-4c1e-9d47-0c1b2a3d4e5f',
        userName: email,
        active: true,
        displayName: 'New Radiographer',
        emails: [{ primary: true, type: 'work', value: email }],
        meta: { resourceType: 'User' },
        name: { formatted: 'New Radiographer', familyName: 'Radiographer', givenName: 'New' },
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Radiology' },
      },
    });
    const userId = created.body.id as string;
    const found = await call('GET', '/scim/v2/Users', { query: { filter: `userName eq "${email}"` } });
    const renamed = await call('PATCH', `/scim/v2/Users/${userId}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Replace', path: 'name.givenName', value: 'Renamed' }],
      },
    });
    const deactivated = await call('PATCH', `/scim/v2/Users/${userId}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
    });
    // Assert
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ totalResults: 0, Resources: [] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ userName: email, active: true, name: { givenName: 'New' } });
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(userId);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name.givenName).toBe('Renamed');
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    const record = await h.deps.directory.getUser(hospitalId, userId);
    expect(record).toMatchObject({ status: 'DISABLED', firstName: 'Renamed', role: 'TEAM_MEMBER' });
    const actions = await auditActions(hospitalId, `scim:${tokenId}`);
    expect(actions).toEqual(
      expect.arrayContaining(['SCIM_USER_CREATED', 'SCIM_USER_UPDATED', 'SCIM_USER_DEACTIVATED']),
    );
  });

  it('takes the attribute update Entra ID sends: several ops, a filtered e-mail path, the enterprise extension', async () => {
    // Arrange
    const hospitalId = h.user(NORTHSIDE_ADMIN).hospitalId;
    const { token } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const call = scim(h, token);
    const lead = h.user(NORTHSIDE_LEAD);
    const id = h.userId(NORTHSIDE_LEAD);
    // Act
    const patched = await call('PATCH', `/scim/v2/Users/${id}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [
          { op: 'Add', path: 'emails[type eq "work"].value', value: lead.email },
          { op: 'Replace', path: 'displayName', value: 'Dr Lead' },
          { op: 'Replace', path: 'name.familyName', value: 'Lead-Renamed' },
          {
            op: 'Add',
            path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
            value: 'Neuroradiology',
          },
        ],
      },
    });
    // Assert
    expect(patched.status).toBe(200);
    expect((await h.deps.directory.getUser(hospitalId, id))?.lastName).toBe('Lead-Renamed');
  });

  it('deactivates a signed-in user: disabled, signed out everywhere, their next request refused', async () => {
    // Arrange
    const { token, id: tokenId } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const call = scim(h, token);
    const member = h.user(NORTHSIDE_MEMBER);
    const sub = h.userId(NORTHSIDE_MEMBER);
    expect((await h.call('GET', '/api/me', { as: NORTHSIDE_MEMBER })).status).toBe(200);
    const found = await call('GET', '/scim/v2/Users', { query: { filter: `userName eq "${member.email}"` } });
    // Act
    const patched = await call('PATCH', `/scim/v2/Users/${found.body.Resources[0].id}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
    });
    const next = await h.call('GET', '/api/me', { as: NORTHSIDE_MEMBER });
    // Assert
    expect(patched.status).toBe(200);
    expect(h.identityCalls).toEqual(expect.arrayContaining([`disable ${sub}`, `signOut ${sub}`]));
    expect(next.status).toBe(403);
    const actions = await auditActions(member.hospitalId, `scim:${tokenId}`);
    expect(actions).toEqual(expect.arrayContaining(['SCIM_USER_DEACTIVATED', 'USER_DISABLED']));
  });

  it("answers 404 for another hospital's user, and finds no other hospital's user by userName", async () => {
    // Arrange
    const { token } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const call = scim(h, token);
    const other = h.user(LAKEVIEW_MEMBER);
    // Act
    const byId = await call('GET', `/scim/v2/Users/${h.userId(LAKEVIEW_MEMBER)}`);
    const patched = await call('PATCH', `/scim/v2/Users/${h.userId(LAKEVIEW_MEMBER)}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] },
    });
    const byName = await call('GET', '/scim/v2/Users', { query: { filter: `userName eq "${other.email}"` } });
    // Assert
    expect(byId.status).toBe(404);
    expect(byId.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    expect(patched.status).toBe(404);
    expect(byName.body.totalResults).toBe(0);
    expect((await h.deps.directory.getUser(other.hospitalId, h.userId(LAKEVIEW_MEMBER)))?.status).toBe('ACTIVE');
  });

  it('refuses a duplicate userName with 409 uniqueness and an unsupported filter with 400 invalidFilter', async () => {
    // Arrange
    const { token } = await newToken(NORTHSIDE_ADMIN, 'Entra ID');
    const call = scim(h, token);
    // Act
    const duplicate = await call('POST', '/scim/v2/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: NORTHSIDE_LEAD,
        active: true,
        name: { givenName: 'A', familyName: 'B' },
      },
    });
    const filtered = await call('GET', '/scim/v2/Users', { query: { filter: 'displayName co "a"' } });
    // Assert
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness' });
    expect(filtered.status).toBe(400);
    expect(filtered.body.scimType).toBe('invalidFilter');
  });

  it('pages the hospital from startIndex with count, reading no further than asked', async () => {
    // Arrange
    const { token } = await newToken(LAKEVIEW_ADMIN, 'Entra ID');
    const call = scim(h, token);
    // Act
    const first = await call('GET', '/scim/v2/Users', { query: { startIndex: '1', count: '2' } });
    const second = await call('GET', '/scim/v2/Users', { query: { startIndex: '3', count: '2' } });
    // Assert
    expect(first.body.Resources).toHaveLength(2);
    expect(first.body).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    expect(first.body.totalResults).toBeGreaterThan(2);
    expect(second.body.startIndex).toBe(3);
    const ids = [...first.body.Resources, ...second.body.Resources].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('SCIM as Okta sends it', () => {
  it('creates a user, deactivates with a path-less replace, and adds and removes group members', async () => {
    // Arrange
    const hospitalId = h.user(NORTHSIDE_ADMIN).hospitalId;
    const { token, id: tokenId } = await newToken(NORTHSIDE_ADMIN, 'Okta');
    const call = scim(h, token);
    const email = 'okta.nurse@northside.demo.local';
    // Act
    const created = await call('POST', '/scim/v2/Users', {
      body: {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: 'Okta', familyName: 'Nurse' },
        emails: [{ primary: true, value: email, type: 'work' }],
        displayName: 'Okta Nurse',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: 'Not-kept-1',
        active: true,
      },
    });
    const userId = created.body.id as string;
    const groups = await call('GET', '/scim/v2/Groups', { query: { filter: 'displayName eq "Team Lead"' } });
    const groupId = groups.body.Resources[0].id as string;
    const added = await call('PATCH', `/scim/v2/Groups/${groupId}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'add', path: 'members', value: [{ value: userId, display: email }] }],
      },
    });
    const asLead = await h.deps.directory.getUser(hospitalId, userId);
    const removed = await call('PATCH', `/scim/v2/Groups/${groupId}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: `members[value eq "${userId}"]` }] },
    });
    const afterRemoval = await h.deps.directory.getUser(hospitalId, userId);
    const deactivated = await call('PATCH', `/scim/v2/Users/${userId}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', value: { active: false } }] },
    });
    // Assert
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('Not-kept-1');
    expect(groups.body.totalResults).toBe(1);
    expect(added.status).toBe(204);
    expect(asLead?.role).toBe('TEAM_LEAD');
    expect(removed.status).toBe(204);
    expect(afterRemoval?.role).toBe('TEAM_MEMBER');
    expect(deactivated.body.active).toBe(false);
    const actions = await auditActions(hospitalId, `scim:${tokenId}`);
    expect(actions.filter((a) => a === 'SCIM_USER_UPDATED')).toHaveLength(2);
    expect(actions).toEqual(
      expect.arrayContaining(['SCIM_USER_CREATED', 'USER_ROLE_CHANGED', 'SCIM_USER_DEACTIVATED']),
    );
  });

  it('groups are the SSO role mapping when the hospital has one (Entra ID adds with "Add" and a value list)', async () => {
    // Arrange
    const hospitalId = h.user(LAKEVIEW_ADMIN).hospitalId;
    await h.deps.sso.save(hospitalId, {
      providerName: `oidc-${hospitalId}`,
      issuer: 'https://idp.lakeview.demo.local',
      clientId: 'imaging-workspace',
      domains: ['lakeview.demo.local'],
      groupsClaim: 'groups',
      roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
      enabled: true,
      ssoOnly: false,
      updatedAt: '2026-01-01T00:00:00.000Z',
      updatedByUserId: h.userId(LAKEVIEW_ADMIN),
    });
    const { token } = await newToken(LAKEVIEW_ADMIN, 'Entra ID');
    const call = scim(h, token);
    const memberId = h.userId(LAKEVIEW_MEMBER);
    // Act
    const listed = await call('GET', '/scim/v2/Groups', { query: { excludedAttributes: 'members' } });
    const groupId = listed.body.Resources[0].id as string;
    const added = await call('PATCH', `/scim/v2/Groups/${groupId}`, {
      body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Add', path: 'members', value: [{ value: memberId }] }] },
    });
    const group = await call('GET', `/scim/v2/Groups/${groupId}`);
    // Assert
    expect(listed.body.Resources.map((g: { displayName: string }) => g.displayName)).toEqual(['radiology-leads']);
    expect(added.status).toBe(204);
    expect((await h.deps.directory.getUser(hospitalId, memberId))?.role).toBe('TEAM_LEAD');
    expect(group.body.members.map((m: { value: string }) => m.value)).toContain(memberId);
  });
});

describe('SCIM discovery', () => {
  it('answers ResourceTypes and Schemas for User and Group', async () => {
    // Arrange
    const { token } = await newToken(NORTHSIDE_ADMIN, 'Discovery');
    const call = scim(h, token);
    // Act
    const types = await call('GET', '/scim/v2/ResourceTypes');
    const schemas = await call('GET', '/scim/v2/Schemas');
    // Assert
    expect(types.status).toBe(200);
    expect(types.body.Resources.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['User', 'Group']),
    );
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toContain(USER_SCHEMA);
  });
});
