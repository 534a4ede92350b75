import type { NotificationInbox, NotificationRecord } from '#shared/domain/notifications/ports.ts';

/** Each user's notifications in memory, newest first as the adapter's index returns them. */
export function createMemoryNotificationInbox(): NotificationInbox & { items: NotificationRecord[] } {
  const items: NotificationRecord[] = [];
  return {
    items,
    add: async (n) => void items.push({ ...n }),
    listNewest: async (h, u, limit) =>
      items
        .filter((n) => n.hospitalId === h && n.userId === u)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .slice(0, limit),
    markRead: async (h, u, marked) => {
      for (const n of items)
        if (n.hospitalId === h && n.userId === u && marked.some((m) => m.id === n.id)) n.read = true;
    },
  };
}
