// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardSchema, type Dashboard } from '#shared/schemas/api/dashboard.ts';
import { system } from '#web/components/ui/provider.tsx';
import { DashboardView } from '#web/features/dashboard/components/dashboard-view.tsx';

const base = {
  pipeline: null,
  currentJobs: [],
  moreJobs: 0,
  recentActivity: [],
  teamActivity: [],
  members: [],
  hospitals: [],
};

function show(dashboard: Dashboard) {
  return render(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <DashboardView dashboard={DashboardSchema.parse(dashboard)} />
      </MemoryRouter>
    </ChakraProvider>,
  );
}

afterEach(cleanup);

describe('role dashboard', () => {
  it("shows the team lead the server's figures, the queue with 3 jobs and how many more, and the team", () => {
    show({
      ...base,
      role: 'TEAM_LEAD',
      stats: [
        { label: 'Team Members', value: 7, format: 'count' },
        { label: 'Active Datasets', value: 4213, format: 'count' },
        { label: 'Patients Analyzed', value: 311, format: 'count' },
        { label: 'Team Storage', value: 3 * 1024 ** 3, format: 'bytes', subtitle: '42.5% of allocation used' },
      ],
      pipeline: { queued: 2, processing: 9, completed: 4000, failed: 12, total: 4213 },
      currentJobs: [1, 2, 3].map((i) => ({
        id: `d${i}`,
        studyType: 'DIAGNOSTIC',
        status: 'PROCESSING',
        ownerName: 'Taylor Brooks',
        updatedAt: '2026-01-01T00:00:00.000Z',
      })),
      moreJobs: 8,
      teamActivity: [{ id: 'e1', at: '2026-01-01T00:00:00.000Z', user: 'Taylor Brooks', action: 'DATASET_CREATED' }],
      members: [{ id: 'u1', name: 'Taylor Brooks', role: 'TEAM_MEMBER', status: 'ACTIVE', lastLogin: null }],
    });
    const cards = screen.getAllByTestId('stat-card').map((c) => c.textContent);
    expect(cards).toEqual([
      'Team Members7',
      'Active Datasets4,213',
      'Patients Analyzed311',
      expect.stringContaining('3 GB'),
    ]);
    expect(screen.getByText('42.5% of allocation used')).toBeTruthy();
    expect(screen.getByTestId('pipeline-processing').textContent).toBe('9');
    expect(within(screen.getByLabelText('Current jobs')).getAllByText('Processing')).toHaveLength(3);
    expect(screen.getByText('View All (8 more)')).toBeTruthy();
    expect(within(screen.getByLabelText('Team Activity')).getByText(/dataset created/)).toBeTruthy();
    expect(screen.getByText('No recent activity to display')).toBeTruthy();
  });

  it('shows the super admin five cards with revenue in dollars and the hospital performance table', () => {
    show({
      ...base,
      role: 'SUPER_ADMIN',
      stats: [
        { label: 'Total Hospitals', value: 2, format: 'count' },
        { label: 'System Users', value: 30, format: 'count' },
        { label: 'Patients Analyzed', value: 120, format: 'count' },
        { label: 'Monthly Revenue', value: 750, format: 'dollars' },
        { label: 'System Storage', value: 1024, format: 'bytes' },
      ],
      hospitals: [
        {
          id: 'h1',
          name: 'Northside General',
          location: 'Chicago, IL',
          plan: 'PRO',
          users: 30,
          patients: 120,
          revenue: 750,
          status: 'ACTIVE',
        },
      ],
    });
    expect(screen.getAllByTestId('stat-card')).toHaveLength(5);
    expect(screen.getByText('1 KB')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Hospital performance' });
    expect(within(table).getAllByText('$750')).toHaveLength(1);
    expect(within(table).getByText('Chicago, IL')).toBeTruthy();
    expect(screen.getAllByText('$750')).toHaveLength(2);
  });
});
