import { describe, expect, it } from 'vitest';
import {
  avatarProblem,
  EMPTY_PASSWORD_FORM,
  passwordErrors,
  settingsTabs,
} from '#web/features/settings/utils/user-settings-form.ts';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TOPICS } from '#web/components/notification-preferences.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES, NotificationPreferencesSchema } from '#shared/schemas/api/policies.ts';

describe('settings page forms', () => {
  it('offers Profile, Security and Notifications to every role, System and Storage to the two admin roles', () => {
    expect(settingsTabs('GUEST').map((t) => t.label)).toEqual(['Profile', 'Security', 'Notifications']);
    expect(settingsTabs('TEAM_MEMBER')).toHaveLength(3);
    expect(settingsTabs('HOSPITAL_ADMIN').map((t) => t.label)).toEqual([
      'Profile',
      'Security',
      'Notifications',
      'System',
      'Storage',
    ]);
    expect(settingsTabs('SUPER_ADMIN')).toHaveLength(5);
  });

  it('takes avatars of JPG, GIF or PNG up to 2MB', () => {
    expect(avatarProblem({ type: 'image/png', size: 2 * 1024 * 1024 })).toBeUndefined();
    expect(avatarProblem({ type: 'image/gif', size: 10 })).toBeUndefined();
    expect(avatarProblem({ type: 'image/png', size: 2 * 1024 * 1024 + 1 })).toBe(
      'Avatar must be a JPG, GIF or PNG image of at most 2MB.',
    );
    expect(avatarProblem({ type: 'image/webp', size: 10 })).toBeDefined();
  });

  it('checks the change-password form before asking Cognito', () => {
    expect(passwordErrors(EMPTY_PASSWORD_FORM)).toEqual({
      currentPassword: 'Password is required',
      newPassword: 'String must contain at least 12 character(s)',
    });
    expect(
      passwordErrors({ currentPassword: 'old', newPassword: 'Abcdefgh1234!', confirmPassword: 'Abcdefgh1234?' }),
    ).toEqual({ confirmPassword: 'Passwords do not match' });
    expect(
      passwordErrors({ currentPassword: 'old', newPassword: 'Abcdefgh1234!', confirmPassword: 'Abcdefgh1234!' }),
    ).toEqual({});
  });

  it('shows a switch for every preference field but the frequency, starting from the defaults', () => {
    const shown = [...NOTIFICATION_CHANNELS, ...NOTIFICATION_TOPICS].map((f) => f.key).sort();
    const fields = Object.keys(NotificationPreferencesSchema.shape)
      .filter((k) => k !== 'frequency')
      .sort();
    expect(shown).toEqual(fields);
    expect(DEFAULT_NOTIFICATION_PREFERENCES).toEqual({
      email: true,
      push: true,
      sms: false,
      frequency: 'immediate',
      usageThresholds: true,
      billingAlerts: true,
      complianceAlerts: true,
      teamActivity: false,
      securityEvents: true,
    });
  });
});
