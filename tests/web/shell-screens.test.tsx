// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { ROLES, type Role } from '#shared/vocabulary/roles.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';
import { system } from '#web/components/ui/provider.tsx';

// The signed-in user, the dashboard figures and the shared list come from hooks; the test is about what the screens
// offer each role.
const state = vi.hoisted(() => ({ role: 'TEAM_LEAD' as string, shared: [] as unknown[] }));
vi.mock('#web/features/auth/hooks/use-auth.tsx', () => ({
  useCurrentUser: () => ({
    user: { id: 'u1', firstName: 'Taylor', lastName: 'Brooks', email: 'lead@northside.demo.local', role: state.role },
    hospital: { id: 'hosp-northside', name: 'Northside General Hospital' },
    team: undefined,
  }),
  useAuth: () => ({ logout: async () => undefined }),
}));
vi.mock('#web/features/dashboard/api/get-dashboard.ts', () => ({
  useDashboard: () => ({ data: undefined, error: undefined, isLoading: true }),
}));
vi.mock('#web/features/shares/api/shares-api.ts', () => ({
  useSharedWithMe: () => ({ data: { items: state.shared } }),
}));

const { RoleDashboard } = await import('#web/app/routes/app/dashboard.tsx');
const { TermsRoute, PrivacyRoute } = await import('#web/app/routes/legal/legal.tsx');
const { AccountMenu } = await import('#web/features/shell/components/account-menu.tsx');
const { topBarSearchFor } = await import('#web/features/shell/utils/top-bar-search.ts');
const { navItemsFor } = await import('#web/features/shell/utils/nav-items.ts');

function show(node: React.ReactNode) {
  return render(
    <ChakraProvider value={system}>
      <MemoryRouter>{node}</MemoryRouter>
    </ChakraProvider>,
  );
}

/** A Northside study as the demo seed holds it, shared with the guest. */
const SHARED: Dataset = {
  id: 'ds-1',
  hospitalId: 'hosp-northside',
  teamId: 'team-1',
  ownerUserId: 'u2',
  ownerName: 'Taylor Brooks',
  patientAlias: 'PT-ABC123',
  studyType: 'DIAGNOSTIC',
  urgency: 'ROUTINE',
  studyDescription: 'Brain MRI',
  clinicalIndication: 'Headache',
  orderingPhysician: 'Dr. Lee',
  department: 'Radiology',
  consentObtained: true,
  hipaaDisclosure: true,
  anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
  status: 'COMPLETE',
  sizeBytes: 1024,
  fileCount: 1,
  seriesCount: 1,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  sharedWithYou: ['view'],
};

afterEach(() => {
  cleanup();
  state.shared = [];
});

describe('top-bar search', () => {
  it.each(ROLES)('leads %s only to a page of its own sidebar, or is not shown', (role: Role) => {
    // Act
    const search = topBarSearchFor(role);

    // Assess
    if (role === 'GUEST') return expect(search).toBeUndefined();
    const target = new URL(search!.href('brain mri'), 'http://site');
    expect(navItemsFor(role).map((i) => i.href)).toContain(target.pathname);
    expect(target.searchParams.get('search')).toBe('brain mri');
  });

  it('searches hospitals for the super admin and datasets for staff', () => {
    expect(topBarSearchFor('SUPER_ADMIN')?.label).toBe('Search hospitals');
    expect(topBarSearchFor('TEAM_MEMBER')?.label).toBe('Search datasets');
  });
});

describe('account menu', () => {
  it('links Account security, Settings, Terms and Privacy, and signs out', async () => {
    // Prepare
    stubResizeObserver();
    const onSignOut = vi.fn();
    show(<AccountMenu firstName="Taylor" lastName="Brooks" role="HOSPITAL_ADMIN" onSignOut={onSignOut} />);

    // Act
    fireEvent.click(screen.getByRole('button', { name: /Taylor Brooks/ }));
    const menu = await screen.findByRole('menu');
    const hrefs = within(menu)
      .getAllByRole('menuitem')
      .map((item) => [item.textContent?.trim(), item.getAttribute('href')]);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));

    // Assess
    expect(hrefs).toEqual([
      ['Account security', '/account/security'],
      ['Settings', '/settings'],
      ['Terms of Service', '/terms'],
      ['Privacy Policy', '/privacy'],
      ['Sign out', null],
    ]);
    await waitFor(() => expect(onSignOut).toHaveBeenCalledTimes(1));
  });
});

describe('terms and privacy', () => {
  it('say in plain text what the service does with data', () => {
    // Act
    const terms = show(<TermsRoute />).container.textContent ?? '';
    cleanup();
    const privacy = show(<PrivacyRoute />).container.textContent ?? '';

    // Assess
    expect(terms).toContain('Terms of Service');
    expect(terms).toContain('audit trail');
    expect(privacy).toContain('Privacy Policy');
    expect(privacy).toContain('de-identified');
    expect(privacy).toContain('never stored');
  });
});

describe('role home pages', () => {
  it("gives the team lead Invite Team Member and Team Reports, opening the team's tabs", () => {
    // Prepare
    state.role = 'TEAM_LEAD';

    // Act
    show(<RoleDashboard />);

    // Assess
    expect(screen.getByRole('link', { name: 'Invite Team Member' }).getAttribute('href')).toBe(
      '/teams?tab=invitations',
    );
    expect(screen.getByRole('link', { name: 'Team Reports' }).getAttribute('href')).toBe('/teams?tab=analytics');
  });

  it('lists what is shared with a guest, each opening in the viewer, and says so when nothing is', () => {
    // Prepare
    state.role = 'GUEST';
    state.shared = [SHARED];

    // Act
    show(<RoleDashboard />);
    const link = screen.getByRole('link', { name: 'Brain MRI' }).getAttribute('href');
    const quickActions = screen.queryByText('Quick Actions');
    cleanup();
    state.shared = [];
    show(<RoleDashboard />);

    // Assess
    expect(link).toBe('/visualizer/ds-1');
    expect(quickActions).toBeNull();
    expect(screen.getByText('Nothing has been shared with you yet.')).toBeTruthy();
  });
});
