import type { Role } from '#shared/vocabulary/roles.ts';
import { paths } from '#web/config/paths.ts';

export type NavItem = { label: string; href: string; roles: readonly Role[] };

const ALL: readonly Role[] = ['SUPER_ADMIN', 'HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'];

/** docs/screens.md#authenticated-shell: sidebar entries and who sees them. */
const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', href: paths.dashboard.getHref(), roles: ALL },
  { label: 'Hospitals', href: paths.hospitals.getHref(), roles: ['SUPER_ADMIN'] },
  { label: 'Datasets', href: paths.datasets.getHref(), roles: ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'] },
  { label: 'Upload DICOM', href: paths.upload.getHref(), roles: ['TEAM_LEAD', 'TEAM_MEMBER'] },
  { label: 'Teams', href: paths.teams.getHref(), roles: ['HOSPITAL_ADMIN', 'TEAM_LEAD'] },
  { label: 'Users', href: paths.users.getHref(), roles: ['SUPER_ADMIN', 'HOSPITAL_ADMIN'] },
  { label: 'Compliance', href: paths.compliance.getHref(), roles: ['SUPER_ADMIN', 'HOSPITAL_ADMIN'] },
  { label: 'Reports', href: paths.reports.getHref(), roles: ['SUPER_ADMIN', 'HOSPITAL_ADMIN'] },
  { label: 'Settings', href: paths.settings.getHref(), roles: [...ALL, 'GUEST'] },
];

export function navItemsFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => item.roles.includes(role));
}

/** Crumb labels of pages that are not sidebar entries (docs/screens.md#hospital-admin-area). */
const PAGE_LABELS: Record<string, string> = {
  '/hospital-admin': 'Hospital Admin',
  '/hospital-admin/teams': 'Teams & Members',
  '/hospital-admin/invitations': 'Invitations',
  '/hospital-admin/usage': 'Usage & Billing',
  '/hospital-admin/compliance': 'Compliance & Audit',
  '/hospital-admin/reports': 'Reports & Analytics',
  '/hospital-admin/recycle-bin': 'Recycle Bin',
  '/hospital-admin/settings': 'Settings',
};

/** Breadcrumb trail for a pathname: each segment becomes a crumb, ids are shortened. */
export function breadcrumbsFor(pathname: string): { label: string; href: string }[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments.map((segment, i) => {
    const href = '/' + segments.slice(0, i + 1).join('/');
    const nav = NAV_ITEMS.find((item) => item.href === href);
    const label =
      nav?.label ??
      PAGE_LABELS[href] ??
      (i > 0
        ? decodeURIComponent(segment).slice(0, 12)
        : segment.replace(/-/g, ' ').replace(/^\w/, (c) => c.toUpperCase()));
    return { label, href };
  });
}
