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
