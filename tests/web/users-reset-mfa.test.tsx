// @vitest-environment jsdom
import { ChakraProvider, Table } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { UserRow } from '#web/features/users/components/user-row.tsx';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

const USER: User = {
  id: 'u1',
  email: 'ada@northside.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  role: 'TEAM_LEAD',
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

const writes: { url: URL; method: string }[] = [];
beforeEach(() => {
  writes.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    writes.push({ url: new URL(url), method: init?.method ?? 'GET' });
    return new Response(JSON.stringify(USER), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderRow(user: User, asSuperAdmin: boolean) {
  render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map() }}>
        <Table.Root>
          <Table.Body>
            <UserRow user={user} teamScope={null} asSuperAdmin={asSuperAdmin} />
          </Table.Body>
        </Table.Root>
      </SWRConfig>
    </ChakraProvider>,
  );
}

describe("Users page: an administrator's two-factor reset", () => {
  it('asks to confirm, then resets the user of the chosen hospital', async () => {
    // Prepare
    renderRow(USER, true);

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Reset two-factor' }));
    const dialog = await screen.findByRole('dialog');
    expect(writes).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));

    // Assess
    await waitFor(() => expect(writes.some((w) => w.method === 'POST')).toBe(true));
    const post = writes.find((w) => w.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/users/u1/reset-mfa');
    expect(post.url.searchParams.get('hospitalId')).toBe('h1');
  });

  it('offers no reset to an invited user, who has no second factor yet', () => {
    renderRow({ ...USER, status: 'INVITED' }, false);
    expect(screen.queryByRole('button', { name: 'Reset two-factor' })).toBeNull();
  });
});
