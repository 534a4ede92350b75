import type { HospitalAdminOverview } from '#shared/schemas/api/organisation.ts';

export type AdminNavItem = { label: string; href: string; end?: boolean; badge?: (o: HospitalAdminOverview) => number };
export type AdminNavGroup = { title: string; items: AdminNavItem[] };

/** docs/screens.md#hospital-admin-area: the area's sidebar groups; badges are counted by the overview route. */
export const ADMIN_NAV_GROUPS: readonly AdminNavGroup[] = [
  { title: 'Overview', items: [{ label: 'Dashboard', href: '/hospital-admin', end: true }] },
  {
    title: 'Team Management',
    items: [
      { label: 'Teams & Members', href: '/hospital-admin/teams', badge: (o) => o.teamsCount },
      { label: 'Invitations', href: '/hospital-admin/invitations', badge: (o) => o.pendingInvitations },
    ],
  },
  { title: 'Operations', items: [{ label: 'Usage & Billing', href: '/hospital-admin/usage' }] },
  { title: 'Analytics', items: [{ label: 'Reports & Analytics', href: '/hospital-admin/reports' }] },
  {
    title: 'Administration',
    items: [
      { label: 'Compliance & Audit', href: '/hospital-admin/compliance' },
      { label: 'Recycle Bin', href: '/hospital-admin/recycle-bin' },
      { label: 'Settings', href: '/hospital-admin/settings' },
    ],
  },
];

export const ADMIN_QUICK_LINKS = [
  { label: 'Invite Member', href: '/hospital-admin/invitations' },
  { label: 'Manage Teams', href: '/hospital-admin/teams' },
  { label: 'Generate Report', href: '/hospital-admin/reports' },
] as const;

/** A badge shows a positive count only. */
export function badgeCount(item: AdminNavItem, overview: HospitalAdminOverview | undefined): number | undefined {
  if (!item.badge || !overview) return undefined;
  const n = item.badge(overview);
  return n > 0 ? n : undefined;
}
