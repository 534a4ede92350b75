import { Text } from '@chakra-ui/react';
import type { NotificationPreferences, Policy } from '#shared/schemas/api/policies.ts';
import { NotificationPreferencesFields } from '#web/components/notification-preferences-fields.tsx';
import { SettingsTab } from './settings-controls.tsx';

type Props = {
  thresholds: Policy['storageCompute']['alertThresholds'];
  /** The admin's own preferences. */
  value: NotificationPreferences;
  onChange(value: NotificationPreferences): void;
};

/** Notifications: when storage notifications are raised, and the admin's own notification preferences. */
export function NotificationsTab({ thresholds, value, onChange }: Props) {
  return (
    <SettingsTab value="notifications">
      <Text color="fg.muted">
        Storage notifications are raised at {thresholds.warning}% (warning) and {thresholds.critical}% (critical) of the
        storage cap.
      </Text>
      <NotificationPreferencesFields value={value} onChange={onChange} />
    </SettingsTab>
  );
}
