import type { Role } from '#shared/vocabulary/roles.ts';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '#shared/schemas/api/policies.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';

/** Tabs of the settings page by role (docs/screens.md#settings-page): System and Storage for the two admin roles. */
export function settingsTabs(role: Role): { value: string; label: string }[] {
  const tabs = [
    { value: 'profile', label: 'Profile' },
    { value: 'security', label: 'Security' },
    { value: 'notifications', label: 'Notifications' },
  ];
  return role === 'SUPER_ADMIN' || role === 'HOSPITAL_ADMIN'
    ? [...tabs, { value: 'system', label: 'System' }, { value: 'storage', label: 'Storage' }]
    : tabs;
}

/** The avatar limit: 2MB, JPG, GIF or PNG; the message is the catalogue's. */
export function avatarProblem(file: { type: string; size: number }): string | undefined {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type) || file.size > AVATAR_MAX_BYTES || file.size === 0)
    return ERROR_CATALOGUE.AVATAR_INVALID.message;
  return undefined;
}

export type PasswordForm = { currentPassword: string; newPassword: string; confirmPassword: string };
export const EMPTY_PASSWORD_FORM: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };
/** The user pool's password policy: at least 12 characters with lower and upper case, a digit and a symbol (docs/screens.md#settings-page); Cognito checks the rest. */
export const MIN_PASSWORD_LENGTH = 12;

export function passwordErrors(form: PasswordForm): Partial<Record<keyof PasswordForm, string>> {
  const errors: Partial<Record<keyof PasswordForm, string>> = {};
  if (!form.currentPassword) errors.currentPassword = 'Password is required';
  if (form.newPassword.length < MIN_PASSWORD_LENGTH)
    errors.newPassword = `String must contain at least ${MIN_PASSWORD_LENGTH} character(s)`;
  if (form.confirmPassword !== form.newPassword) errors.confirmPassword = 'Passwords do not match';
  return errors;
}
