import { useEffect, useRef } from 'react';
import useSWR from 'swr';
import { z } from 'zod';
import { NotificationListSchema, type Notification } from '#shared/schemas/api/notifications.ts';
import { toaster } from '#web/components/ui/toaster.tsx';
import { apiRequest } from '#web/lib/api-client.ts';

/** How often the bell asks the server for new notifications while the site is open. */
const REFRESH_MS = 30_000;
const KEY = '/api/notifications';
const TOAST_TYPE: Record<Notification['type'], 'success' | 'error' | 'warning'> = {
  DATASET_COMPLETE: 'success',
  DATASET_FAILED: 'error',
  STORAGE_WARNING: 'warning',
  STORAGE_CRITICAL: 'error',
  SHARE_OPENED: 'success',
  SHARE_LOCKED: 'error',
  INVITATION_ACCEPTED: 'success',
  POLICY_CHANGED: 'warning',
  SHARE_APPROVAL_REQUESTED: 'warning',
  SHARE_APPROVAL_DECIDED: 'success',
  FAILED_SIGN_INS: 'error',
  ACCESS_TOKEN_CHANGED: 'warning',
  BILL_UPCOMING: 'warning',
};

export function markServerNotificationsRead(ids?: string[]) {
  return apiRequest('/api/notifications/read', z.object({ unreadCount: z.number() }), {
    method: 'POST',
    body: ids ? { ids } : {},
  });
}

/**
 * The user's notifications kept by the server (dataset complete or failed), refreshed every 30 s. One that arrives
 * while the user is on the site is also shown as a toast; those already there when the site opened are not.
 */
export function useServerNotifications() {
  const swr = useSWR(KEY, () => apiRequest(KEY, NotificationListSchema), { refreshInterval: REFRESH_MS });
  const seen = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    const items = swr.data?.items;
    if (!items) return;
    if (seen.current) {
      for (const n of items.filter((i: Notification) => !i.read && !seen.current!.has(i.id)))
        toaster.create({
          type: TOAST_TYPE[n.type],
          title: n.title,
          description: n.description,
        });
    }
    seen.current = new Set(items.map((i) => i.id));
  }, [swr.data]);
  return swr;
}
