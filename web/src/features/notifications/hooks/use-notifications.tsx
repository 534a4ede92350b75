import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** docs/domain.md#notifications-and-toasts: the notification list keeps the 50 newest entries. */
export const MAX_NOTIFICATIONS = 50;

export type NotificationInput = {
  title: string;
  description?: string;
  type?: 'info' | 'success' | 'warning' | 'error';
  href?: string;
};
export type AppNotification = NotificationInput & { id: string; timestamp: string; read: boolean };

type NotificationsContextValue = {
  notifications: AppNotification[];
  unreadCount: number;
  notify(input: NotificationInput): void;
  markAllRead(): void;
  clear(): void;
};

const NotificationsContext = createContext<NotificationsContextValue | undefined>(undefined);

/** Adds a notification at the head of the list and drops the oldest beyond the cap. */
export function addNotification(
  list: AppNotification[],
  input: NotificationInput,
  now = new Date(),
): AppNotification[] {
  const entry: AppNotification = { ...input, id: crypto.randomUUID(), timestamp: now.toISOString(), read: false };
  return [entry, ...list].slice(0, MAX_NOTIFICATIONS);
}

/** Notifications of what happened in this session (uploads finished, pipeline results); nothing is invented. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notifications, setNotifications] = useState<AppNotification[]>([]);
  const notify = useCallback(
    (input: NotificationInput) => setNotifications((list) => addNotification(list, input)),
    [],
  );
  const markAllRead = useCallback(() => setNotifications((list) => list.map((n) => ({ ...n, read: true }))), []);
  const clear = useCallback(() => setNotifications([]), []);
  const value = useMemo(
    () => ({ notifications, unreadCount: notifications.filter((n) => !n.read).length, notify, markAllRead, clear }),
    [notifications, notify, markAllRead, clear],
  );
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}

export function useNotifications(): NotificationsContextValue {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotifications must be used inside NotificationsProvider');
  return value;
}
