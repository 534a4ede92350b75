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

/**
 * Permissions no route checks yet (docs/roles-and-permissions.md#reserved-permissions): named so a stored list stays
 * valid, but nobody may be given them. None at present: EXPORT_DATA guards the dataset export.
 */
export const RESERVED_PERMISSIONS = [] as const satisfies readonly Permission[];
export type GrantablePermission = Exclude<Permission, (typeof RESERVED_PERMISSIONS)[number]>;
/** What the change-permissions route, the invitations and the site offer: every permission a route checks. */
export const GRANTABLE_PERMISSIONS = PERMISSIONS.filter(
  (p): p is GrantablePermission => !(RESERVED_PERMISSIONS as readonly string[]).includes(p),
);

/** Default permissions a user of each role gets when created or invited (record: invitation defaults). */
export const DEFAULT_PERMISSIONS: Record<Role, PermissionGrant[]> = {
  SUPER_ADMIN: ['*'],
  HOSPITAL_ADMIN: ['*'],
  TEAM_LEAD: [...GRANTABLE_PERMISSIONS],
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
