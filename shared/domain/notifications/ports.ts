import type { Notification } from '#shared/schemas/api/notifications.ts';

/** A notification as stored: for one user of one hospital. */
export type NotificationRecord = Notification & { hospitalId: string; userId: string };

/** Each user's notifications, newest first. */
export type NotificationInbox = {
  add(notification: NotificationRecord): Promise<void>;
  listNewest(hospitalId: string, userId: string, limit: number): Promise<NotificationRecord[]>;
  markRead(
    hospitalId: string,
    userId: string,
    notifications: readonly Pick<NotificationRecord, 'id' | 'createdAt'>[],
  ): Promise<void>;
};

/** An e-mail held for a user's digest (docs/domain.md#notifications): what the bell shows, never patient data. */
export type DigestItem = Pick<Notification, 'id' | 'type' | 'title' | 'description' | 'href' | 'createdAt'> & {
  hospitalId: string;
  userId: string;
  /** The digest it goes out in: `D<yyyy-mm-dd>` (daily) or `W<yyyy-mm-dd of the Monday>` (weekly). */
  period: string;
};

/**
 * What delivering notifications keeps beside the inbox (docs/domain.md#notifications): once-only claims (an alert of a
 * threshold a month, a digest a user and period), the items waiting for a digest, and each user's recent sign-in
 * attempts without a success.
 */
export type NotificationLedger = {
  /** Claims a once-only event of the hospital named by `key`: true the first time, false for every later try. */
  claimOnce(hospitalId: string, key: string, at: string): Promise<boolean>;
  /** Queues an item for a digest; the same item (hospital, period, user, id) queued twice is kept once. */
  queueDigestItem(item: DigestItem): Promise<void>;
  /** Every item of the hospital's digests of a period, by user then oldest first. */
  listDigestItems(hospitalId: string, period: string): Promise<DigestItem[]>;
  /**
   * Notes a sign-in attempt of the user and answers the attempts since their last success (this one included) that
   * are no older than `windowMs`, oldest first.
   */
  noteSignInAttempt(hospitalId: string, userId: string, at: string, windowMs: number): Promise<string[]>;
  /** Forgets the user's attempts (a success, or a burst already reported). */
  clearSignInAttempts(hospitalId: string, userId: string): Promise<void>;
};
