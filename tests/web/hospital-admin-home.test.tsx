// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardSchema } from '#shared/schemas/api/dashboard.ts';
import { UsageSchema } from '#shared/schemas/api/usage.ts';
import { system } from '#web/components/ui/provider.tsx';

const GB = 1024 ** 3;

// The server's answers, as the hooks hand them over: the test is about what the hospital admin's home shows of them.
const server = vi.hoisted(() => ({ dashboard: undefined as unknown, usage: undefined as unknown }));
vi.mock('#web/features/auth/hooks/use-auth.tsx', () => ({
  useCurrentUser: () => ({ user: { firstName: 'Morgan', lastName: 'Reyes', role: 'HOSPITAL_ADMIN' } }),
}));
vi.mock('#web/features/hospital-admin/api/overview.ts', () => ({
  useHospitalAdminOverview: () => ({ data: undefined, error: undefined, isLoading: false }),
}));
vi.mock('#web/features/dashboard/api/get-dashboard.ts', () => ({
  useDashboard: () => ({ data: server.dashboard, error: undefined }),
}));
vi.mock('#web/features/usage/api/usage.ts', () => ({
  useUsage: () => ({ data: server.usage }),
}));

const { HospitalAdminIndexRoute } = await import('#web/app/routes/hospital-admin/index.tsx');

afterEach(cleanup);

describe("the hospital admin's home", () => {
  it('shows the pipeline status, recent activity and billing the server computed', () => {
    // Prepare
    server.dashboard = DashboardSchema.parse({
      role: 'HOSPITAL_ADMIN',
      stats: [{ label: 'Hospital Users', value: 48, format: 'count' }],
      pipeline: { queued: 1, processing: 2, completed: 30, failed: 3, total: 40 },
      currentJobs: [],
      moreJobs: 0,
      recentActivity: [{ id: 'e1', at: '2026-02-03T09:00:00.000Z', user: 'Taylor Brooks', action: 'DATASET_CREATED' }],
      teamActivity: [],
      members: [],
      hospitals: [],
    });
    server.usage = UsageSchema.parse({
      month: '2026-02',
      generatedAt: '2026-02-10T00:00:00.000Z',
      hospitals: [
        {
          hospitalId: 'hosp-northside',
          hospitalName: 'Northside General Hospital',
          plan: 'PRO',
          storage: { used: 4300 * GB, limit: 5120 * GB, percent: 84, health: 'good' },
          compute: { used: 7200, limit: 8_640_000, percent: 0.1, health: 'excellent', gbSeconds: 28_800, runs: 3 },
          badge: 'Healthy Usage',
          days: [],
          teams: [],
          nextBillDate: '2026-03-01',
          daysToNextBill: 19,
          invoice: {
            number: 'hosp-northside-2026-02',
            hospitalId: 'hosp-northside',
            hospitalName: 'Northside General Hospital',
            month: '2026-02',
            plan: 'PRO',
            pricePerUser: 25,
            users: 48,
            amount: 1200,
            issuedAt: '2026-03-01',
            dueDate: '2026-03-01',
          },
        },
      ],
    });

    // Act
    render(
      <ChakraProvider value={system}>
        <MemoryRouter>
          <HospitalAdminIndexRoute />
        </MemoryRouter>
      </ChakraProvider>,
    );

    // Assess
    expect(screen.getByText('Processing Pipeline Status')).toBeTruthy();
    expect(screen.getByTestId('pipeline-failed').textContent).toBe('3');
    expect(screen.getByTestId('pipeline-total').textContent).toBe('40');
    expect(within(screen.getByLabelText('Recent Activity')).getByText(/Taylor Brooks · dataset created/)).toBeTruthy();
    // The figures the overview shows already are not repeated.
    expect(screen.queryAllByTestId('stat-card')).toHaveLength(0);
    const billing = screen.getByTestId('billing-panel');
    expect(within(billing).getByTestId('billing-next-bill').textContent).toBe('$1,200.00');
    expect(within(billing).getByText('Healthy Usage')).toBeTruthy();
    expect(within(billing).getByRole('link', { name: 'Usage & Billing' }).getAttribute('href')).toBe(
      '/hospital-admin/usage',
    );
  });
});
