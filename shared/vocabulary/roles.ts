/** The five roles; in Cognito each is a user-pool group of the same name. */
export const ROLES = ['SUPER_ADMIN', 'HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'] as const;
export type Role = (typeof ROLES)[number];

/** Business permissions (docs/roles-and-permissions.md#permissions). '*' grants all. */
export const PERMISSIONS = [
  'VIEW_DATASETS',
  'UPLOAD_DICOM',
  'SHARE_DATA',
  'MANAGE_MEMBERS',
  'SEND_INVITATIONS',
  'VIEW_ANALYTICS',
  'EXPORT_DATA',
  'DELETE_DATA',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type PermissionGrant = Permission | '*';

/** Default permissions a user of each role gets when created or invited (record: invitation defaults). */
export const DEFAULT_PERMISSIONS: Record<Role, PermissionGrant[]> = {
  SUPER_ADMIN: ['*'],
  HOSPITAL_ADMIN: ['*'],
  TEAM_LEAD: [...PERMISSIONS],
  TEAM_MEMBER: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
  GUEST: ['VIEW_DATASETS'],
};

export const ROLE_TITLES: Record<Role, string> = {
  SUPER_ADMIN: 'System Admin',
  HOSPITAL_ADMIN: 'Hospital Admin',
  TEAM_LEAD: 'Team Lead',
  TEAM_MEMBER: 'Team Member',
  GUEST: 'Guest',
};

/** A permission check passes when the list holds '*' or the named permission. */
export function hasPermission(granted: readonly string[], needed: Permission): boolean {
  return granted.includes('*') || granted.includes(needed);
}

export function hasRole(role: Role, allowed: Role | readonly Role[]): boolean {
  return typeof allowed === 'string' ? role === allowed : allowed.includes(role);
}
