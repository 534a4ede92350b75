// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TEAM_SETTINGS } from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { UserManagement } from '#web/features/users/components/user-management.tsx';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

const requested: URL[] = [];

beforeEach(() => {
  requested.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url);
    requested.push(u);
    const body =
      u.pathname === '/api/departments'
        ? {
            items: [
              {
                id: 'dept-1',
                hospitalId: 'h',
                name: 'Radiology',
                description: '',
                teamCount: 0,
                memberCount: 0,
                createdAt: '',
                updatedAt: '',
              },
            ],
          }
        : { items: [], nextToken: null };
    return new Response(JSON.stringify(body), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const userQueries = () =>
  requested.filter((u) => u.pathname === '/api/users').map((u) => Object.fromEntries(u.searchParams));

describe('Users page filters', () => {
  it('asks the server with the debounced search, the role and the department', async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <MemoryRouter>
            <UserManagement asSuperAdmin={false} invitationsHref="/hospital-admin/invitations" />
          </MemoryRouter>
        </SWRConfig>
      </ChakraProvider>,
    );
    await waitFor(() => expect(userQueries().length).toBeGreaterThan(0));
    await screen.findByRole('option', { name: 'Radiology' });

    // Act
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'ad' } });
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'ada' } });
    const rightAfterTyping = userQueries().some((q) => q.q);
    await waitFor(() => expect(userQueries().some((q) => q.q === 'ada')).toBe(true));
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'TEAM_LEAD' } });
    fireEvent.change(screen.getByLabelText('Department'), { target: { value: 'dept-1' } });
    await waitFor(() => expect(userQueries().some((q) => q.departmentId === 'dept-1')).toBe(true));

    // Assess
    expect(rightAfterTyping).toBe(false);
    expect(userQueries().some((q) => q.q === 'ad')).toBe(false);
    expect(userQueries().at(-1)).toEqual({ q: 'ada', role: 'TEAM_LEAD', departmentId: 'dept-1', limit: '25' });
    expect(screen.getByRole('link', { name: /Invite User/ }).getAttribute('href')).toBe('/hospital-admin/invitations');
    expect(await screen.findByText('No users found')).toBeTruthy();
  });
});

describe('Users page for the super admin', () => {
  it("filters by the chosen hospital's departments and moves a user into one of its teams", async () => {
    // Prepare
    const user = {
      id: 'u1',
      email: 'ada@northside.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: null,
      role: 'TEAM_MEMBER',
      status: 'ACTIVE',
      hospitalId: 'h1',
      teamId: null,
      teamName: null,
      departmentId: null,
      department: null,
      specialization: null,
      permissions: [],
      lastLogin: null,
      createdAt: '',
    };
    const team = {
      id: 'team-1',
      hospitalId: 'h1',
      name: 'Neuroradiology',
      departmentId: 'dept-1',
      departmentName: 'Radiology',
      description: '',
      leadUserId: null,
      leadName: null,
      dataPolicy: 'shared',
      maxMembers: 15,
      priority: 'medium',
      tags: [],
      memberCount: 0,
      isActive: true,
      settings: DEFAULT_TEAM_SETTINGS,
      createdAt: '',
      updatedAt: '',
    };
    const writes: { url: URL; method: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const u = new URL(url);
      requested.push(u);
      if (init?.method === 'PATCH') {
        writes.push({ url: u, method: init.method, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ ...user, teamId: 'team-1', teamName: 'Neuroradiology' }), { status: 200 });
      }
      const bodies: Record<string, unknown> = {
        '/api/hospitals': {
          items: [],
          nextToken: null,
          summary: { totalHospitals: 0, activeSubscriptions: 0, totalUsers: 0, monthlyRevenue: 0 },
        },
        '/api/departments': {
          items: [
            {
              id: 'dept-1',
              hospitalId: 'h1',
              name: 'Radiology',
              description: '',
              teamCount: 1,
              memberCount: 0,
              createdAt: '',
              updatedAt: '',
            },
          ],
        },
        '/api/teams': { items: [team], nextToken: null },
        '/api/users': { items: [user], nextToken: null },
      };
      return new Response(JSON.stringify(bodies[u.pathname] ?? { items: [], nextToken: null }), { status: 200 });
    });
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <MemoryRouter initialEntries={['/super-admin/users?hospitalId=h1']}>
            <UserManagement asSuperAdmin invitationsHref="/hospital-admin/invitations" />
          </MemoryRouter>
        </SWRConfig>
      </ChakraProvider>,
    );
    await screen.findByRole('option', { name: 'Radiology' });
    await screen.findByRole('option', { name: 'Neuroradiology' });

    // Act
    fireEvent.change(screen.getByLabelText('Team of Ada Lovelace'), { target: { value: 'team-1' } });
    await waitFor(() => expect(writes).toHaveLength(1));

    // Assess
    const scoped = (path: string) =>
      requested.filter((u) => u.pathname === path).map((u) => u.searchParams.get('hospitalId'));
    expect(scoped('/api/departments')).toEqual(expect.arrayContaining(['h1']));
    expect(scoped('/api/teams')).toEqual(expect.arrayContaining(['h1']));
    expect(writes[0]!.url.pathname).toBe('/api/users/u1/team');
    expect(writes[0]!.url.searchParams.get('hospitalId')).toBe('h1');
    expect(writes[0]!.body).toEqual({ teamId: 'team-1' });
  });
});
