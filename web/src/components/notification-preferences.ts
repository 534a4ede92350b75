import type { NotificationPreferences } from '#shared/schemas/api/policies.ts';

/** The preference switches with their labels, in the order they are shown (docs/domain.md#settings). */
export const NOTIFICATION_CHANNELS: { key: 'email' | 'push' | 'sms'; label: string }[] = [
  { key: 'email', label: 'Email' },
  { key: 'push', label: 'Push' },
  { key: 'sms', label: 'SMS' },
];
export const NOTIFICATION_TOPICS: {
  key: keyof Omit<NotificationPreferences, 'email' | 'push' | 'sms' | 'frequency'>;
  label: string;
}[] = [
  { key: 'usageThresholds', label: 'Usage thresholds' },
  { key: 'billingAlerts', label: 'Billing alerts' },
  { key: 'complianceAlerts', label: 'Compliance alerts' },
  { key: 'teamActivity', label: 'Team activity' },
  { key: 'securityEvents', label: 'Security events' },
];
export const FREQUENCY_LABELS: Record<NotificationPreferences['frequency'], string> = {
  immediate: 'Immediate',
  daily: 'Daily digest',
  weekly: 'Weekly digest',
};
