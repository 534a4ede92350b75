import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type Role } from '#shared/vocabulary/roles.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import type { TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { teamIndexAttributes, userIndexAttributes, userSearchItems } from '#functions/adapters/dynamo/organisation.ts';
import { bulkPut } from '#tests/helpers/harness.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * A hospital with 1,000 users in 100 teams of 10 departments: every list of the organisation reads one index page (or
 * one page of search tokens and the users they name), so the items read per page stay bounded by the page size,
 * on the first page and deep into the list (counted from what DynamoDB returns to the client).
 */
const HOSPITAL = 'hosp-northside';
const ADMIN = 'admin@northside.demo.local';
const USERS = 1_000;
const TEAMS = 100;
const DEPARTMENTS = 10;
const ROLES: Role[] = ['TEAM_MEMBER', 'TEAM_MEMBER', 'TEAM_LEAD', 'GUEST'];
const NOW = '2026-01-01T00:00:00.000Z';
const pad = (n: number, width = 4) => String(n).padStart(width, '0');
const present = (r: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));

let h: Harness;
let read = { queried: 0, fetched: 0, queries: 0 };

function items(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let d = 0; d < DEPARTMENTS; d++)
    out.push({
      ...keys.department(HOSPITAL, `scale-dept-${d}`),
      entity: 'department',
      id: `scale-dept-${d}`,
      hospitalId: HOSPITAL,
      name: `Scale Department ${d}`,
      description: '',
      createdAt: NOW,
    });
  for (let t = 0; t < TEAMS; t++) {
    const team: TeamRecord = {
      id: `scale-team-${pad(t, 3)}`,
      hospitalId: HOSPITAL,
      name: `Scale Team ${pad(t, 3)}`,
      departmentId: `scale-dept-${t % DEPARTMENTS}`,
      description: '',
      isActive: true,
      memberCount: USERS / TEAMS,
      createdAt: NOW,
    };
    out.push({ ...keys.team(HOSPITAL, team.id), ...present(teamIndexAttributes(team)), entity: 'team', ...team });
  }
  for (let i = 0; i < USERS; i++) {
    const role = ROLES[i % ROLES.length]!;
    const team = i % TEAMS;
    const user: UserRecord = {
      id: `scale-user-${pad(i)}`,
      email: `person${pad(i)}@scale.test`,
      firstName: `Avery${pad(i)}`,
      lastName: `Quinn${i % 50}`,
      role,
      status: 'ACTIVE',
      hospitalId: HOSPITAL,
      teamId: `scale-team-${pad(team, 3)}`,
      departmentId: `scale-dept-${team % DEPARTMENTS}`,
      permissions: [...DEFAULT_PERMISSIONS[role]],
      createdAt: NOW,
    };
    out.push(
      {
        ...keys.user(HOSPITAL, user.id),
        ...keys.userByEmail(user.email),
        ...present(userIndexAttributes(user)),
        entity: 'user',
        ...user,
      },
      ...userSearchItems(user),
    );
  }
  return out;
}

beforeAll(async () => {
  h = await startHarness();
  const all = items();
  await bulkPut(h.table, all);
  h.table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as {
        Items?: unknown[];
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
        Count?: number;
      };
      if (context.commandName === 'QueryCommand') {
        read.queries += 1;
        read.queried += output.Items?.length ?? output.Count ?? 0;
      }
      if (context.commandName === 'BatchGetCommand')
        read.fetched += Object.values(output.Responses ?? {}).reduce((n, list) => n + list.length, 0);
      if (context.commandName === 'GetCommand' && output.Item) read.fetched += 1;
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

async function page(path: string, query: Record<string, string>) {
  read = { queried: 0, fetched: 0, queries: 0 };
  const response = await h.call('GET', path, { as: ADMIN, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, ...read };
}

/** Pages `deep` times through a list, returning the first page and the last one read. */
async function firstAndDeep(path: string, query: Record<string, string>, deep: number) {
  const first = await page(path, query);
  let last = first;
  for (let i = 0; i < deep; i++) {
    expect(last.body.nextToken, `page ${i + 1} of ${path}`).toEqual(expect.any(String));
    last = await page(path, { ...query, nextToken: last.body.nextToken });
  }
  return { first, deep: last };
}

describe('organisation lists over 1,000 users and 100 teams in one hospital', () => {
  it('pages the user list from the name index: one query of a page, first page and deep alike', async () => {
    const { first, deep } = await firstAndDeep('/api/users', { limit: '25' }, 20);
    for (const p of [first, deep]) {
      expect(p.body.items).toHaveLength(25);
      expect(p.queries).toBe(1);
      expect(p.queried).toBe(25);
      // Each distinct team and department named on the page is read once.
      expect(p.fetched).toBeLessThanOrEqual(2 * 25);
    }
    expect(deep.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it('filters by role through the role index', async () => {
    const { first, deep } = await firstAndDeep('/api/users', { limit: '25', role: 'GUEST' }, 5);
    for (const p of [first, deep]) {
      expect(p.body.items).toHaveLength(25);
      expect(p.body.items.every((u: { role: string }) => u.role === 'GUEST')).toBe(true);
      expect(p.queried).toBe(25);
    }
  });

  it('filters by department through the department index', async () => {
    const { first, deep } = await firstAndDeep('/api/users', { limit: '20', departmentId: 'scale-dept-3' }, 3);
    for (const p of [first, deep]) {
      expect(p.body.items).toHaveLength(20);
      expect(p.body.items.every((u: { departmentId: string }) => u.departmentId === 'scale-dept-3')).toBe(true);
      expect(p.queried).toBe(20);
    }
  });

  it('searches through prefix tokens: one page of tokens and the users they name', async () => {
    const search = await page('/api/users', { limit: '10', q: 'avery01' });
    expect(search.body.items.map((u: { id: string }) => u.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `scale-user-${pad(100 + i)}`),
    );
    expect(search.queries).toBe(1);
    expect(search.queried).toBe(10);
    expect(search.fetched).toBeLessThanOrEqual(10 + 2 * 10);
    const byMail = await page('/api/users', { limit: '10', q: 'PERSON0999' });
    expect(byMail.body.items.map((u: { id: string }) => u.id)).toEqual(['scale-user-0999']);
    const { deep } = await firstAndDeep('/api/users', { limit: '10', q: 'quinn' }, 5);
    expect(deep.queried).toBe(10);
  });

  it('pages the team list from the active-teams index', async () => {
    const { first, deep } = await firstAndDeep('/api/teams', { limit: '20' }, 3);
    for (const p of [first, deep]) {
      expect(p.body.items).toHaveLength(20);
      expect(p.queries).toBe(1);
      expect(p.queried).toBe(20);
      expect(p.fetched).toBeLessThanOrEqual(2 * 20);
    }
    const byDepartment = await page('/api/teams', { limit: '5', departmentId: 'scale-dept-1' });
    expect(byDepartment.body.items).toHaveLength(5);
    expect(byDepartment.queried).toBe(5);
  });

  it("pages a team's members from the team index", async () => {
    const { first, deep } = await firstAndDeep('/api/teams/scale-team-007/members', { limit: '4' }, 1);
    for (const p of [first, deep]) {
      expect(p.body.items).toHaveLength(4);
      expect(p.queried).toBe(4);
    }
  });
});
