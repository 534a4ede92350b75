import type { Role } from '#shared/vocabulary/roles.ts';
import { paths } from '#web/config/paths.ts';

export type TopBarSearch = { label: string; placeholder: string; href(query: string): string };

/**
 * What the top bar's search looks through for a role (docs/screens.md#authenticated-shell), always a page the role may
 * open: the super admin searches hospitals, staff search datasets; a guest has no search (what is shared with them is
 * their home page's list).
 */
export function topBarSearchFor(role: Role): TopBarSearch | undefined {
  if (role === 'SUPER_ADMIN')
    return {
      label: 'Search hospitals',
      placeholder: 'Search hospitals',
      href: (q) => `${paths.hospitals.getHref()}?search=${encodeURIComponent(q)}`,
    };
  if (role === 'GUEST') return undefined;
  return {
    label: 'Search datasets',
    placeholder: 'Search datasets',
    href: (q) => `${paths.datasets.getHref()}?search=${encodeURIComponent(q)}`,
  };
}
