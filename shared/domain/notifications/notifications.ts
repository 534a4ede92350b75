import type { Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import { MAX_NOTIFICATIONS, type Notification } from '#shared/schemas/api/notifications.ts';
import type { NotificationInbox, NotificationRecord } from './ports.ts';

const toNotification = ({ hospitalId: _h, userId: _u, ...n }: NotificationRecord): Notification => n;

/** The caller's 50 newest notifications and how many of them are unread (one read of their inbox). */
export async function listNotifications(
  caller: Caller,
  deps: { notifications: NotificationInbox },
): Promise<{ items: Notification[]; unreadCount: number }> {
  const items = await deps.notifications.listNewest(caller.hospitalId, caller.userId, MAX_NOTIFICATIONS);
  return { items: items.map(toNotification), unreadCount: items.filter((n) => !n.read).length };
}

/** Marks the given notifications (or all listed ones) of the caller read; another user's ids are not theirs to mark. */
export async function markNotificationsRead(
  input: { ids?: string[] },
  caller: Caller,
  deps: { notifications: NotificationInbox },
): Promise<{ unreadCount: number }> {
  const items = await deps.notifications.listNewest(caller.hospitalId, caller.userId, MAX_NOTIFICATIONS);
  const wanted = input.ids ? new Set(input.ids) : undefined;
  const unread = items.filter((n) => !n.read);
  const marked = unread.filter((n) => !wanted || wanted.has(n.id));
  if (marked.length) await deps.notifications.markRead(caller.hospitalId, caller.userId, marked);
  return { unreadCount: unread.length - marked.length };
}

/**
 * Tells a dataset's owner that processing finished or failed (docs/screens.md#authenticated-shell). The text names no
 * patient data: the link leads to the dataset, where the owner sees it.
 */
export async function notifyDatasetOutcome(
  deps: { notifications?: NotificationInbox; clock: Clock; ids?: IdGenerator },
  dataset: Pick<DatasetRecord, 'id' | 'hospitalId' | 'ownerUserId'>,
  outcome: 'COMPLETE' | 'FAILED',
): Promise<void> {
  if (!deps.notifications) return;
  await deps.notifications.add({
    id: deps.ids?.newId() ?? `${dataset.id}-${outcome}-${Date.parse(deps.clock.now())}`,
    hospitalId: dataset.hospitalId,
    userId: dataset.ownerUserId,
    type: outcome === 'COMPLETE' ? 'DATASET_COMPLETE' : 'DATASET_FAILED',
    title: outcome === 'COMPLETE' ? 'Dataset processing complete' : 'Dataset processing failed',
    description:
      outcome === 'COMPLETE' ? 'Your dataset is ready to view.' : 'Open the dataset to see why and retry it.',
    href: `/datasets/${encodeURIComponent(dataset.id)}`,
    createdAt: deps.clock.now(),
    read: false,
  });
}
