// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';
import { UserManagement } from '#web/features/users/components/user-management.tsx';

const requested: URL[] = [];

beforeEach(() => {
  requested.length = 0;
  setRuntimeConfig({
    region: 'local',
    userPoolId: 'pool',
    userPoolClientId: 'client',
    apiBaseUrl: 'http://api.test',
    mode: 'local',
    demoAccounts: [],
  });
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
