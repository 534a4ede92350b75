// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TeamAnalyticsSchema } from '#shared/schemas/api/team-analytics.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';
import { system } from '#web/components/ui/provider.tsx';

// The server's answer, as the hook hands it over, and the period it was asked for.
const server = vi.hoisted(() => ({ periods: [] as string[] }));
vi.mock('#web/features/teams/api/team-analytics.ts', () => ({
  useTeamAnalytics: (teamId: string, period: string) => {
    server.periods.push(period);
    return {
      data: TeamAnalyticsSchema.parse({
        teamId,
        period,
        from: '2026-01-03',
        totalDatasets: 3,
        uploadsCompleted: 2,
        failed: 1,
        storageAddedBytes: 3 * 1024 ** 2,
        activeMembers: 2,
        members: 5,
        datasetsByType: { DIAGNOSTIC: 1, FOLLOW_UP: 0, SCREENING: 0, EMERGENCY: 0, RESEARCH: 2 },
        memberActivity: [
          { name: 'Taylor Brooks', datasets: 2 },
          { name: 'Jordan Lee', datasets: 1 },
        ],
        timeline: [
          { bucket: '2026-02-01', datasets: 1 },
          { bucket: '2026-02-02', datasets: 2 },
        ],
        truncated: false,
      }),
      error: undefined,
    };
  },
}));

const { TeamAnalyticsTab } = await import('#web/features/teams/components/team-analytics.tsx');
const { teamTabOf } = await import('#web/features/teams/components/team-management.tsx');

afterEach(() => {
  cleanup();
  server.periods.length = 0;
});

describe('team analytics tab', () => {
  it("shows the server's figures for the last 30 days first, by type, member and day", () => {
    // Prepare
    stubResizeObserver();

    // Act
    render(
      <ChakraProvider value={system}>
        <MemoryRouter>
          <TeamAnalyticsTab teamId="team-northside-neuroradiology" />
        </MemoryRouter>
      </ChakraProvider>,
    );

    // Assess
    expect(server.periods[0]).toBe('LAST_30_DAYS');
    expect(screen.getByTestId('analytics-datasets').textContent).toBe('3');
    expect(screen.getByTestId('analytics-failed').textContent).toBe('1');
    expect(screen.getByTestId('analytics-active-members').textContent).toBe('2 / 5');
    expect(within(screen.getByLabelText('Datasets by type')).getByText('Research').closest('tr')?.textContent).toBe(
      'Research2',
    );
    expect(within(screen.getByLabelText('Datasets by member')).getByText('Taylor Brooks')).toBeTruthy();
    const days = within(screen.getByRole('table', { name: 'Datasets per day' })).getAllByRole('row');
    expect(days[1]?.textContent).toBe('2026-02-022');
  });

  it("opens the tab a link names (the lead's Team Reports and Invite Team Member), the overview otherwise", () => {
    // Act
    const tabs = ['analytics', 'invitations', 'no-such-tab', null].map(teamTabOf);

    // Assess
    expect(tabs).toEqual(['analytics', 'invitations', 'overview', 'overview']);
  });
});
