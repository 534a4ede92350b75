import { describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_SETTINGS, type HospitalAdminOverview } from '#shared/schemas/api/organisation.ts';
import { ADMIN_NAV_GROUPS, badgeCount } from '#web/features/hospital-admin/utils/admin-nav.ts';
import { hospitalListQuery, NO_HOSPITAL_FILTERS } from '#web/features/hospitals/utils/hospital-query.ts';
import { EMPTY_TEAM_DRAFT, parseTeamDraft } from '#web/features/teams/utils/team-form.ts';
import { NO_USER_FILTERS, userListQuery } from '#web/features/users/utils/user-query.ts';
import { breadcrumbsFor } from '#web/features/shell/utils/nav-items.ts';

describe('filters become the list query', () => {
  it('sends the hospital search, plan and status, leaving out what is empty', () => {
    expect(hospitalListQuery(NO_HOSPITAL_FILTERS)).toEqual({ limit: 12 });
    expect(hospitalListQuery({ search: '  chicago ', plan: 'PRO', status: 'DEACTIVATED' }, 'tok')).toEqual({
      q: 'chicago',
      plan: 'PRO',
      status: 'DEACTIVATED',
      limit: 12,
      nextToken: 'tok',
    });
  });

  it('sends the user search, role, department and the super admin hospital', () => {
    expect(userListQuery(NO_USER_FILTERS)).toEqual({ limit: 25 });
    expect(userListQuery({ search: 'ada ', role: 'TEAM_LEAD', departmentId: 'dept-1' }, 'hosp-1', 't2')).toEqual({
      q: 'ada',
      role: 'TEAM_LEAD',
      departmentId: 'dept-1',
      hospitalId: 'hosp-1',
      limit: 25,
      nextToken: 't2',
    });
  });
});

describe('team form', () => {
  it('needs a department and a name of 2 characters, and reads tags and max members', () => {
    // Prepare
    const missing = parseTeamDraft({ ...EMPTY_TEAM_DRAFT, name: 'A' });
    // Act
    const ok = parseTeamDraft({
      ...EMPTY_TEAM_DRAFT,
      name: 'Stroke',
      departmentId: 'dept-1',
      tags: 'mri, acute,',
      maxMembers: '8',
    });
    const zero = parseTeamDraft({ ...EMPTY_TEAM_DRAFT, name: 'Stroke', departmentId: 'dept-1', maxMembers: '0' });
    // Assess
    expect(missing.ok ? {} : missing.errors).toEqual({
      name: 'Team name must be at least 2 characters',
      departmentId: 'Required',
    });
    expect(ok.ok && ok.value).toMatchObject({
      tags: ['mri', 'acute'],
      maxMembers: 8,
      leadUserId: null,
      settings: DEFAULT_TEAM_SETTINGS,
    });
    expect(zero.ok ? undefined : zero.errors.maxMembers).toBe('Number must be greater than 0');
  });
});

describe('hospital-admin sidebar badges', () => {
  it('shows the counted teams and pending invitations, nothing before the figures arrive or for zero', () => {
    // Prepare
    const items = ADMIN_NAV_GROUPS.flatMap((g) => g.items);
    const teams = items.find((i) => i.label === 'Teams & Members')!;
    const invitations = items.find((i) => i.label === 'Invitations')!;
    const overview = { teamsCount: 4, pendingInvitations: 0 } as HospitalAdminOverview;
    // Act / Assess
    expect(ADMIN_NAV_GROUPS.map((g) => g.title)).toEqual([
      'Overview',
      'Team Management',
      'Operations',
      'Analytics',
      'Administration',
    ]);
    expect(badgeCount(teams, overview)).toBe(4);
    expect(badgeCount(invitations, overview)).toBeUndefined();
    expect(badgeCount(teams, undefined)).toBeUndefined();
  });
});

describe('hospital-admin breadcrumbs', () => {
  it('names the area and its pages', () => {
    expect(breadcrumbsFor('/hospital-admin/teams').map((c) => c.label)).toEqual(['Hospital Admin', 'Teams & Members']);
  });
});
