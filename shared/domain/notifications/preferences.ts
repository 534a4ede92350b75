import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import type { Mailer } from '#shared/domain/invitations/ports.ts';
import type { SmsSender } from '#shared/domain/shares/ports.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '#shared/schemas/api/policies.ts';
import type { Notification } from '#shared/schemas/api/notifications.ts';
import type { NotificationInbox, NotificationLedger } from './ports.ts';
import {
  digestPeriod,
  notificationMail,
  notificationSms,
  planDelivery,
  type DeliveryPlan,
  type PreferenceTopic,
} from './delivery.ts';

export type { PreferenceTopic } from './delivery.ts';

/**
 * What a notification honouring preferences needs. Every port is optional so that a core function may be called
 * where no inbox exists (a script, an older test): nothing is delivered then. Without a mailer (or a ledger for the
 * digest) no e-mail goes out, without an SMS sender no text message; the bell still gets the notification.
 */
export type PreferredNotificationDeps = {
  notifications?: NotificationInbox;
  settings?: Pick<SettingsStore, 'getNotificationPreferences'> & Partial<Pick<SettingsStore, 'getUserProfile'>>;
  organisation?: Pick<OrganisationStore, 'listUsers'>;
  mailer?: Mailer;
  sms?: SmsSender;
  notificationLedger?: Pick<NotificationLedger, 'queueDigestItem'>;
  /** Origin of the site, for the link of an e-mail. */
  siteOrigin?: string;
  clock: Clock;
  ids?: IdGenerator;
};

export type NotificationContent = Pick<Notification, 'type' | 'title' | 'description' | 'href'>;

/** Hospital admins a hospital has at most, as far as a notification to all of them goes (one page of the index). */
const ADMINS_NOTIFIED = 100;

/** What became of one recipient. */
export type Delivered = { userId: string; inApp: boolean; email: DeliveryPlan['email'] | 'failed'; sms: boolean };

/**
 * Delivers the notification to each recipient whose preferences keep `topic` on (the defaults where they never saved
 * any), by the channels and at the frequency they chose (planDelivery, docs/domain.md#notifications): the bell, an
 * e-mail now or in their digest, a text message for an urgent topic. One channel failing does not keep the others
 * from the recipient. Returns the recipients reached and how.
 */
export async function deliverToWhoWants(
  hospitalId: string,
  userIds: readonly string[],
  topic: PreferenceTopic,
  content: NotificationContent,
  deps: PreferredNotificationDeps,
): Promise<Delivered[]> {
  const { notifications } = deps;
  if (!notifications) return [];
  const now = deps.clock.now();
  const delivered: Delivered[] = [];
  for (const userId of new Set(userIds)) {
    const preferences: NotificationPreferences =
      (await deps.settings?.getNotificationPreferences(hospitalId, userId)) ?? DEFAULT_NOTIFICATION_PREFERENCES;
    if (!preferences[topic]) continue;
    const profile = await deps.settings?.getUserProfile?.(hospitalId, userId);
    const plan = planDelivery(preferences, topic, { email: profile?.email, phone: profile?.phone });
    const id = deps.ids?.newId() ?? `${content.type}-${userId}-${Date.parse(now)}`;
    await notifications.add({ id, hospitalId, userId, ...content, createdAt: now, read: false });
    const reached: Delivered = { userId, inApp: true, email: 'none', sms: false };
    if (plan.email === 'now' && deps.mailer && profile?.email) {
      // The bell has it already: a mail service that refuses leaves the request that raised it unharmed.
      reached.email = await deps.mailer
        .send({ to: profile.email, ...notificationMail(content, deps.siteOrigin), tag: 'notification' })
        .then(() => 'now' as const)
        .catch(() => 'failed' as const);
    } else if (plan.email === 'digest' && deps.notificationLedger) {
      await deps.notificationLedger.queueDigestItem({
        id,
        hospitalId,
        userId,
        period: digestPeriod(preferences.frequency, now),
        type: content.type,
        title: content.title,
        ...(content.description ? { description: content.description } : {}),
        ...(content.href ? { href: content.href } : {}),
        createdAt: now,
      });
      reached.email = 'digest';
    }
    if (plan.sms && deps.sms && profile?.phone) {
      reached.sms = await deps.sms
        .send({ to: profile.phone.replace(/ /g, ''), text: notificationSms(content) })
        .then(() => true)
        .catch(() => false);
    }
    delivered.push(reached);
  }
  return delivered;
}

/** deliverToWhoWants, answering only the ids of the users notified. */
export async function notifyWhoWants(
  hospitalId: string,
  userIds: readonly string[],
  topic: PreferenceTopic,
  content: NotificationContent,
  deps: PreferredNotificationDeps,
): Promise<string[]> {
  return (await deliverToWhoWants(hospitalId, userIds, topic, content, deps)).map((d) => d.userId);
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
