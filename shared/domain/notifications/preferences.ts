import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '#shared/schemas/api/policies.ts';
import type { Notification } from '#shared/schemas/api/notifications.ts';
import type { NotificationInbox } from './ports.ts';

/** The preference toggles that decide whether a kind of notification is delivered (docs/domain.md#notifications). */
export type PreferenceTopic =
  'usageThresholds' | 'billingAlerts' | 'complianceAlerts' | 'teamActivity' | 'securityEvents';

/**
 * What a notification honouring preferences needs. Every port is optional so that a core function may be called
 * where no inbox exists (a script, an older test): nothing is delivered then.
 */
export type PreferredNotificationDeps = {
  notifications?: NotificationInbox;
  settings?: Pick<SettingsStore, 'getNotificationPreferences'>;
  organisation?: Pick<OrganisationStore, 'listUsers'>;
  clock: Clock;
  ids?: IdGenerator;
};

export type NotificationContent = Pick<Notification, 'type' | 'title' | 'description' | 'href'>;

/** Hospital admins a hospital has at most, as far as a notification to all of them goes (one page of the index). */
const ADMINS_NOTIFIED = 100;

/**
 * Delivers the notification to each recipient whose preferences keep `topic` on (the defaults where they never saved
 * any). Returns the ids of the users notified.
 */
export async function notifyWhoWants(
  hospitalId: string,
  userIds: readonly string[],
  topic: PreferenceTopic,
  content: NotificationContent,
  deps: PreferredNotificationDeps,
): Promise<string[]> {
  const { notifications } = deps;
  if (!notifications) return [];
  const now = deps.clock.now();
  const notified: string[] = [];
  for (const userId of new Set(userIds)) {
    const preferences: NotificationPreferences =
      (await deps.settings?.getNotificationPreferences(hospitalId, userId)) ?? DEFAULT_NOTIFICATION_PREFERENCES;
    if (!preferences[topic]) continue;
    await notifications.add({
      id: deps.ids?.newId() ?? `${content.type}-${userId}-${Date.parse(now)}`,
      hospitalId,
      userId,
      ...content,
      createdAt: now,
      read: false,
    });
    notified.push(userId);
  }
  return notified;
}

/** The hospital's ACTIVE hospital admins (one page of the role index), but for `except` (the one who acted). */
export async function activeHospitalAdmins(
  hospitalId: string,
  deps: Pick<PreferredNotificationDeps, 'organisation'>,
  except?: string,
): Promise<string[]> {
  if (!deps.organisation) return [];
  const page = await deps.organisation.listUsers({
    hospitalId,
    role: 'HOSPITAL_ADMIN',
    status: 'ACTIVE',
    limit: ADMINS_NOTIFIED,
  });
  return page.items.map((u) => u.id).filter((id) => id !== except);
}
