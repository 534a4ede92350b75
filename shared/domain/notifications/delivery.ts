import type { NotificationPreferences } from '#shared/schemas/api/policies.ts';
import type { Notification } from '#shared/schemas/api/notifications.ts';

/** The preference toggles that decide whether a kind of notification is delivered (docs/domain.md#notifications). */
export type PreferenceTopic =
  'usageThresholds' | 'billingAlerts' | 'complianceAlerts' | 'teamActivity' | 'securityEvents';

/**
 * Topics urgent enough to reach a person at once (docs/domain.md#notifications): their e-mail never waits for a
 * digest, and they go by text message to those who chose SMS.
 */
export const URGENT_TOPICS: ReadonlySet<PreferenceTopic> = new Set(['securityEvents']);

/** How one notification reaches one person. */
export type DeliveryPlan = {
  inApp: boolean;
  /** `now`: an e-mail of its own; `digest`: an item of the user's daily or weekly digest e-mail. */
  email: 'now' | 'digest' | 'none';
  sms: boolean;
};

export const NOTHING: DeliveryPlan = { inApp: false, email: 'none', sms: false };

/**
 * A number SNS can text: E.164, a "+" and the country code, spaces allowed between digits (the patient shares' rule,
 * docs/domain.md#shares).
 */
export const SMS_NUMBER = /^\+[1-9][0-9 ]{5,17}[0-9]$/;

/**
 * The delivery decision of one notification for one person (docs/domain.md#notifications): nothing when the topic is
 * off; otherwise the bell, e-mail when they chose e-mail and have an address (at once for an urgent topic or the
 * frequency "immediate", else in the digest of their frequency), and a text message for an urgent topic when they
 * chose SMS and their profile holds a number SNS can text.
 */
export function planDelivery(
  preferences: NotificationPreferences,
  topic: PreferenceTopic,
  contact: { email?: string; phone?: string },
): DeliveryPlan {
  if (!preferences[topic]) return NOTHING;
  const urgent = URGENT_TOPICS.has(topic);
  const email =
    !preferences.email || !contact.email ? 'none' : urgent || preferences.frequency === 'immediate' ? 'now' : 'digest';
  const phone = contact.phone?.trim();
  return { inApp: true, email, sms: urgent && preferences.sms && !!phone && SMS_NUMBER.test(phone) };
}

const DAY_MS = 86_400_000;

/**
 * The digest an e-mail of `at` waits for: `D<day>` for a daily digest, `W<Monday of its week>` for a weekly one
 * (ISO weeks start on Monday, UTC).
 */
export function digestPeriod(frequency: NotificationPreferences['frequency'], at: string): string {
  if (frequency !== 'weekly') return `D${at.slice(0, 10)}`;
  const day = new Date(`${at.slice(0, 10)}T00:00:00.000Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return `W${new Date(day.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10)}`;
}

/** The digests due on the day of `now`: yesterday's daily digest, and on a Monday last week's weekly one. */
export function duePeriods(now: string): string[] {
  const today = new Date(`${now.slice(0, 10)}T00:00:00.000Z`);
  const yesterday = new Date(today.getTime() - DAY_MS).toISOString();
  const periods = [digestPeriod('daily', yesterday)];
  if (today.getUTCDay() === 1) periods.push(digestPeriod('weekly', yesterday));
  return periods;
}

type MailContent = Pick<Notification, 'title' | 'description' | 'href'>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const linkOf = (href: string | undefined, siteOrigin: string | undefined) =>
  href && siteOrigin ? `${siteOrigin.replace(/\/$/, '')}${href}` : undefined;

/**
 * The e-mail of one notification: its title, its description and the page it leads to. The texts are the bell's,
 * written by the product with ids, counts and colleagues' names, never DICOM header text (docs/domain.md#notifications).
 */
export function notificationMail(
  content: MailContent,
  siteOrigin?: string,
): { subject: string; text: string; html: string } {
  const link = linkOf(content.href, siteOrigin);
  const lines = [content.title, content.description, link ? `Open: ${link}` : undefined].filter(
    (l): l is string => !!l,
  );
  return {
    subject: content.title,
    text: lines.join('\n\n'),
    html: `<h1>${escapeHtml(content.title)}</h1>${content.description ? `<p>${escapeHtml(content.description)}</p>` : ''}${
      link ? `<p><a href="${escapeHtml(link)}">Open in Imaging Workspace</a></p>` : ''
    }`,
  };
}

/** One digest e-mail: every item of the period, oldest first. */
export function digestMail(
  period: string,
  items: readonly (MailContent & { createdAt: string })[],
  siteOrigin?: string,
): { subject: string; text: string; html: string } {
  const label = period.startsWith('W') ? `week of ${period.slice(1)}` : period.slice(1);
  const subject = `Your notifications for ${label} (${items.length})`;
  const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const text = sorted
    .map((i) => {
      const link = linkOf(i.href, siteOrigin);
      return [`- ${i.title}`, i.description ? `  ${i.description}` : '', link ? `  ${link}` : '']
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
  const html = `<h1>${escapeHtml(subject)}</h1><ul>${sorted
    .map((i) => {
      const link = linkOf(i.href, siteOrigin);
      const title = link ? `<a href="${escapeHtml(link)}">${escapeHtml(i.title)}</a>` : escapeHtml(i.title);
      return `<li>${title}${i.description ? ` ${escapeHtml(i.description)}` : ''}</li>`;
    })
    .join('')}</ul>`;
  return { subject, text: `${subject}\n\n${text}`, html };
}

/** A text message: short, the title and the description only. */
export function notificationSms(content: MailContent): string {
  return `Imaging Workspace: ${content.title}.${content.description ? ` ${content.description}` : ''}`;
}
