// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';
import { TeamInvitations } from '#web/features/invitations/components/team-invitations.tsx';
import { invitationFixture } from '#tests/helpers/fixtures.ts';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

/** The team route as the API answers it: pages of two of three invitations, with the counts of all of them. */
const base = invitationFixture();
const INVITATIONS = [1, 2, 3].map((n) => ({
  ...base,
  id: `i${n}`,
  email: `person${n}@x.test`,
  fullName: `Person ${n}`,
}));
const COUNTS = { all: 12, pending: 1, sent: 4, accepted: 6, expired: 1 };
const requested: URL[] = [];

beforeEach(() => {
  requested.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url);
    requested.push(u);
    const start = Number(u.searchParams.get('nextToken') ?? 0);
    const items = INVITATIONS.slice(start, start + 2);
    const nextToken = start + 2 < INVITATIONS.length ? String(start + 2) : null;
    return new Response(JSON.stringify({ items, counts: COUNTS, nextToken }), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a team's Invitations tab", () => {
  it('shows the team\'s counts from the server and loads older invitations on "Load more"', async () => {
    // Arrange
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <TeamInvitations teamId="t1" />
        </SWRConfig>
      </ChakraProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Team invitations' });
    await waitFor(() => expect(within(table).getByText('Person 2')).toBeTruthy());

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));

    // Assert: pending is the not-lapsed pending ones (sent or not), total sent all of the team's.
    await waitFor(() => expect(within(table).getByText('Person 3')).toBeTruthy());
    const stat = (label: string) => screen.getByText(label).parentElement!.textContent;
    expect(stat('Pending')).toBe('Pending5');
    expect(stat('Total sent')).toBe('Total sent12');
    expect(stat('Accepted')).toBe('Accepted6');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(requested.map((u) => [u.pathname, u.searchParams.get('limit'), u.searchParams.get('nextToken')])).toEqual([
      ['/api/teams/t1/invitations', '50', null],
      ['/api/teams/t1/invitations', '50', '2'],
    ]);
  });
});
