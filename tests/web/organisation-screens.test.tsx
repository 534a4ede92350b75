// @vitest-environment jsdom
import '#tests/web/dom-polyfills.ts';
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TEAM_SETTINGS,
  type Department,
  type Hospital,
  type HospitalAdminOverview,
  type TeamDetail,
  type TeamMember,
} from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { HospitalAdminLayout } from '#web/features/hospital-admin/components/hospital-admin-layout.tsx';
import { HospitalManagement } from '#web/features/hospitals/components/hospital-management.tsx';
import { MyTeam } from '#web/features/teams/components/my-team.tsx';
import { TeamManagement } from '#web/features/teams/components/team-management.tsx';
import { TeamsAdmin } from '#web/features/teams/components/teams-admin.tsx';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

const NOW = '2026-03-01T10:00:00.000Z';
const hospital = (over: Partial<Hospital>): Hospital => ({
  id: 'h1',
  slug: 'riverside',
  name: 'Riverside Clinic',
  email: 'contact@riverside.example',
  phone: '+1 608 555 0142',
  addressLine1: '12 River Road',
  addressLine2: null,
  city: 'Springfield',
  state: 'IL',
  country: 'US',
  timezone: 'America/Chicago',
  website: null,
  description: 'Community clinic',
  specialization: [],
  subscriptionPlan: 'PRO',
  status: 'ACTIVE',
  userCount: 4,
  datasetCount: 2,
  monthlyRevenue: 100,
  createdAt: NOW,
  updatedAt: NOW,
  deactivatedAt: null,
  ...over,
});
const department: Department = {
  id: 'dept-1',
  hospitalId: 'h1',
  name: 'Cardiology',
  description: 'Cardiac imaging',
  teamCount: 1,
  memberCount: 3,
  createdAt: NOW,
  updatedAt: NOW,
};
const emptyDepartment: Department = { ...department, id: 'dept-2', name: 'Oncology', teamCount: 0, memberCount: 0 };
const team: TeamDetail = {
  id: 'team-1',
  hospitalId: 'h1',
  name: 'Echo Lab',
  departmentId: 'dept-1',
  departmentName: 'Cardiology',
  leadUserId: 'u-lead',
  leadName: 'Jordan Patel',
  description: 'Echocardiography',
  dataPolicy: 'shared',
  maxMembers: 15,
  priority: 'high',
  tags: ['echo'],
  settings: DEFAULT_TEAM_SETTINGS,
  isActive: true,
  memberCount: 2,
  createdAt: NOW,
  updatedAt: NOW,
  stats: { activeMembers: 2, pendingInvites: 1, totalDatasets: 7, storageUsedBytes: 3 * 1024 ** 3 },
};
const member: TeamMember = {
  id: 'u-member',
  role: 'MEMBER',
  status: 'ACTIVE',
  permissions: ['VIEW_DATASETS'],
  lastActive: null,
  user: {
    firstName: 'Taylor',
    lastName: 'Brooks',
    email: 'member@x.example',
    department: 'Cardiology',
    specialization: null,
  },
};
const overview: HospitalAdminOverview = {
  hospital: { id: 'h1', name: 'Riverside Clinic', subscriptionPlan: 'PRO' },
  teamsCount: 3,
  departmentsCount: 2,
  membersCount: 9,
  pendingInvitations: 0,
  datasetsCount: 5,
  storageUsedBytes: 0,
};

const requests: { method: string; url: URL; body: unknown }[] = [];
function answer(method: string, path: string): unknown {
  if (path === '/api/hospitals')
    return {
      items: [hospital({}), hospital({ id: 'h2', name: 'Old Clinic', status: 'DEACTIVATED', userCount: 0 })],
      nextToken: 'next-1',
      summary: { totalHospitals: 2, activeSubscriptions: 1, totalUsers: 4, monthlyRevenue: 1250 },
    };
  if (path === '/api/departments') return { items: [department, emptyDepartment] };
  if (path === '/api/teams' && method === 'POST') return team;
  if (path === '/api/teams') return { items: [team], nextToken: null };
  if (path === '/api/teams/team-1') return team;
  if (path === '/api/teams/team-1/members') return { items: [member], nextToken: null };
  if (path === '/api/users') return { items: [], nextToken: null };
  if (path === '/api/hospital-admin/overview') return overview;
  throw new Error(`unexpected ${method} ${path}`);
}

beforeEach(() => {
  requests.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const u = new URL(url);
    const method = init?.method ?? 'GET';
    requests.push({ method, url: u, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify(answer(method, u.pathname)), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(node: ReactNode, path = '/') {
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
      </SWRConfig>
    </ChakraProvider>,
  );
}

describe('Hospital Management', () => {
  it('shows the summary from the API, cards with their actions, and sends the filters', async () => {
    // Prepare
    renderWith(<HospitalManagement />);
    // Act
    const revenue = await screen.findByTestId('summary-monthly-revenue');
    const cards = screen.getAllByTestId('hospital-card');
    fireEvent.click(screen.getByRole('button', { name: /Filters/ }));
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'ENTERPRISE' } });
    await waitFor(() => expect(requests.some((r) => r.url.searchParams.get('plan') === 'ENTERPRISE')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(requests.some((r) => r.url.searchParams.get('nextToken') === 'next-1')).toBe(true));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'DEACTIVATED' } });
    await waitFor(() => expect(requests.some((r) => r.url.searchParams.get('status') === 'DEACTIVATED')).toBe(true));
    const afterFilterChange = requests.filter((r) => r.url.searchParams.get('status') === 'DEACTIVATED');
    // Assess
    expect(revenue.textContent).toBe('$1,250');
    expect(afterFilterChange.every((r) => !r.url.searchParams.has('nextToken'))).toBe(true);
    expect(screen.getByTestId('summary-total-hospitals').textContent).toBe('2');
    expect(
      within(cards[0]!)
        .getByRole('link', { name: /Manage/ })
        .getAttribute('href'),
    ).toBe('/users?hospitalId=h1');
    expect(within(cards[1]!).getByText('Deactivated')).toBeTruthy();
    expect(within(cards[1]!).getByRole('button', { name: /Restore/ })).toBeTruthy();
    expect(within(cards[1]!).queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});

describe('Teams & Members', () => {
  it('lists departments with counts (delete only when empty) and teams, and creates a department', async () => {
    // Prepare
    renderWith(<TeamsAdmin />);
    const rows = await screen.findAllByTestId('department-row');
    await screen.findByTestId('team-row');
    const cardiologyDeletable = !(
      within(rows[0]!).getByRole('button', { name: 'Delete Cardiology' }) as HTMLButtonElement
    ).disabled;
    const oncologyDeletable = !(within(rows[1]!).getByRole('button', { name: 'Delete Oncology' }) as HTMLButtonElement)
      .disabled;
    // Act
    fireEvent.click(screen.getByRole('button', { name: /Add Department/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Department' }));
    const message = await within(dialog).findByText('Department name must be at least 2 characters');
    // Assess
    expect([cardiologyDeletable, oncologyDeletable]).toEqual([false, true]);
    expect(screen.getByTestId('team-row').textContent).toContain('2 / 15');
    expect(message).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });
});

describe('Create Team', () => {
  it('sends the team form as the contract has it', async () => {
    // Prepare
    renderWith(<TeamsAdmin />);
    await screen.findByTestId('team-row');
    // Act
    fireEvent.click(screen.getByRole('button', { name: /Create Team/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input[name="teamName"]')!, { target: { value: 'Echo Lab' } });
    fireEvent.change(within(dialog).getByLabelText('Department'), { target: { value: 'dept-1' } });
    fireEvent.change(within(dialog).getByLabelText('Tags'), { target: { value: 'echo, cardiac' } });
    fireEvent.change(dialog.querySelector('input[name="maxMembers"]')!, { target: { value: '8' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Team' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    // Assess
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({
      url: expect.objectContaining({ pathname: '/api/teams' }),
      body: {
        name: 'Echo Lab',
        departmentId: 'dept-1',
        leadUserId: null,
        tags: ['echo', 'cardiac'],
        maxMembers: 8,
        dataPolicy: 'shared',
        priority: 'medium',
        settings: DEFAULT_TEAM_SETTINGS,
      },
    });
  });
});

describe('Team Management', () => {
  it('shows the stat cards from the team and the tabs, with an honest Invitations tab', async () => {
    // Prepare
    renderWith(<TeamManagement teamId="team-1" canManage={false} />);
    // Act
    const storage = await screen.findByTestId('team-storage-used');
    fireEvent.click(screen.getByRole('tab', { name: 'Invitations' }));
    const invitations = await screen.findByText('Invitations are sent from the Invitation Center');
    fireEvent.click(screen.getByRole('tab', { name: 'Members' }));
    const memberRow = await screen.findByTestId('member-row');
    // Assess
    expect(screen.getByTestId('team-active-members').textContent).toBe('2');
    expect(screen.getByTestId('team-pending-invites').textContent).toBe('1');
    expect(screen.getByTestId('team-total-datasets').textContent).toBe('7');
    expect(storage.textContent).toBe('3 GB');
    expect(invitations).toBeTruthy();
    expect(memberRow.textContent).toContain('Team Member');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Overview',
      'Members',
      'Invitations',
      'DICOM Shares',
      'Analytics',
      'Settings',
    ]);
  });

  it('gives a member the read-only My Team view', async () => {
    renderWith(<MyTeam teamId="team-1" />);
    expect(await screen.findByRole('heading', { name: 'My Team' })).toBeTruthy();
    expect(await screen.findByText('Taylor Brooks')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Permissions|Remove/ })).toBeNull();
  });
});

describe('hospital-admin layout', () => {
  it('shows the groups, quick links and the counted badges', async () => {
    renderWith(
      <Routes>
        <Route path="/hospital-admin" element={<HospitalAdminLayout />}>
          <Route index element={<p>index</p>} />
        </Route>
      </Routes>,
      '/hospital-admin',
    );
    expect((await screen.findByTestId('badge-Teams & Members')).textContent).toBe('3');
    expect(screen.queryByTestId('badge-Invitations')).toBeNull();
    expect(screen.getByRole('link', { name: 'Invite Member' }).getAttribute('href')).toBe(
      '/hospital-admin/invitations',
    );
    expect(screen.getByText('index')).toBeTruthy();
  });
});
