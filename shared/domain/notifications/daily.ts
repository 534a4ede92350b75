import type { Directory } from '#shared/domain/auth/ports.ts';
import type { Mailer } from '#shared/domain/invitations/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import { monthlyInvoice, nextMonthStart } from '#shared/domain/usage/billing.ts';
import { digestMail, duePeriods } from './delivery.ts';
import type { DigestItem, NotificationInbox, NotificationLedger } from './ports.ts';
import { activeHospitalAdmins, deliverToWhoWants } from './preferences.ts';

/** Days before the monthly bill that the hospital admins are told of it (docs/domain.md#billing-alerts). */
export const BILL_NOTICE_DAYS = 3;

const DAY_MS = 86_400_000;

export type DailyNotificationDeps = {
  settings: Pick<SettingsStore, 'listHospitalIds' | 'getNotificationPreferences' | 'getUserProfile'>;
  directory: Pick<Directory, 'getHospital'>;
  organisation: Pick<OrganisationStore, 'listUsers'>;
  notifications: NotificationInbox;
  notificationLedger: NotificationLedger;
  mailer: Mailer;
  siteOrigin?: string;
  clock: Clock;
  ids: IdGenerator;
};

export type DailyNotificationResult = { hospitals: number; billNotices: number; digests: number };

/**
 * The daily notifications job (docs/domain.md#notifications): for every active hospital, the "next bill" notice once
 * a month when the bill is at most 3 days away, then the digests due (yesterday's daily digest, on Mondays last
 * week's weekly one): one e-mail per user and period with all its items. A claim per user and period keeps a re-run
 * (a retried schedule) from sending a digest twice.
 */
export async function sendDailyNotifications(deps: DailyNotificationDeps): Promise<DailyNotificationResult> {
  const now = deps.clock.now();
  const result: DailyNotificationResult = { hospitals: 0, billNotices: 0, digests: 0 };
  for (const hospitalId of await deps.settings.listHospitalIds()) {
    const hospital = await deps.directory.getHospital(hospitalId);
    // A deactivated hospital's admins are signed out and refused (docs/domain.md#deactivation): nothing to tell them.
    if (!hospital || hospital.status === 'DEACTIVATED') continue;
    result.hospitals++;
    if (await billNotice(hospital, now, deps)) result.billNotices++;
    for (const period of duePeriods(now)) result.digests += await sendDigests(hospitalId, period, deps);
  }
  return result;
}

async function billNotice(
  hospital: Parameters<typeof monthlyInvoice>[0],
  now: string,
  deps: DailyNotificationDeps,
): Promise<boolean> {
  const month = now.slice(0, 7);
  const billDate = nextMonthStart(month);
  const daysLeft = Math.ceil((Date.parse(`${billDate}T00:00:00.000Z`) - Date.parse(now)) / DAY_MS);
  if (daysLeft > BILL_NOTICE_DAYS) return false;
  if (!(await deps.notificationLedger.claimOnce(hospital.id, `bill#${month}`, now))) return false;
  const invoice = monthlyInvoice(hospital, month);
  await deliverToWhoWants(
    hospital.id,
    await activeHospitalAdmins(hospital.id, deps),
    'billingAlerts',
    {
      type: 'BILL_UPCOMING',
      title: 'Next bill soon',
      description: `The bill for ${month} is issued on ${billDate}: ${invoice.users} users, $${invoice.amount.toFixed(2)}.`,
      href: '/hospital-admin/usage',
    },
    deps,
  );
  return true;
}

/** Sends each user's digest of the period once; answers how many were sent. */
async function sendDigests(hospitalId: string, period: string, deps: DailyNotificationDeps): Promise<number> {
  const byUser = new Map<string, DigestItem[]>();
  for (const item of await deps.notificationLedger.listDigestItems(hospitalId, period))
    byUser.set(item.userId, [...(byUser.get(item.userId) ?? []), item]);
  let sent = 0;
  for (const [userId, items] of byUser) {
    const profile = await deps.settings.getUserProfile(hospitalId, userId);
    if (!profile?.email) continue;
    if (!(await deps.notificationLedger.claimOnce(hospitalId, `digest#${period}#${userId}`, deps.clock.now())))
      continue;
    await deps.mailer.send({
      to: profile.email,
      ...digestMail(period, items, deps.siteOrigin),
      tag: 'notification-digest',
    });
    sent++;
  }
  return sent;
}
