import {
  DEFAULT_PERMISSIONS,
  GRANTABLE_PERMISSIONS,
  type PermissionGrant,
  type Role,
} from '#shared/vocabulary/roles.ts';
import type { TeamRecord } from '#shared/domain/auth/ports.ts';
import { DEFAULT_TEAM_SETTINGS } from '#shared/schemas/api/organisation.ts';

/**
 * What a user joining a team is given when nobody named permissions (docs/roles-and-permissions.md#default-permissions):
 * a team member the team's "Default permissions of new members" (a team stored without settings has the defaults),
 * never a reserved permission even where a list stored before carries one; anyone else, or no team, the role's
 * defaults.
 */
export function joiningPermissions(
  role: Role,
  team: Pick<TeamRecord, 'settings'> | null | undefined,
): PermissionGrant[] {
  if (role !== 'TEAM_MEMBER' || !team) return [...DEFAULT_PERMISSIONS[role]];
  const chosen: readonly string[] = team.settings?.defaultPermissions ?? DEFAULT_TEAM_SETTINGS.defaultPermissions;
  return GRANTABLE_PERMISSIONS.filter((p) => chosen.includes(p));
}
