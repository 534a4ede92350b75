import { Badge, Box, Button, Float, HStack, IconButton, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { LuBell } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import {
  markServerNotificationsRead,
  useServerNotifications,
} from '#web/features/notifications/api/server-notifications.ts';
import {
  MAX_NOTIFICATIONS,
  useNotifications,
  type AppNotification,
} from '#web/features/notifications/hooks/use-notifications.tsx';
import { formatDateTime } from '#web/lib/format.ts';

/**
 * The bell: this session's notifications (uploads finished, ...) and the server's (a dataset complete or failed),
 * newest first, the 50 newest; the badge counts the unread of both. Closing the list marks them read.
 */
export function NotificationBell() {
  const local = useNotifications();
  const server = useServerNotifications();
  const serverItems: AppNotification[] = (server.data?.items ?? []).map((n) => ({
    id: `server-${n.id}`,
    title: n.title,
    description: n.description,
    href: n.href,
    type: n.type === 'DATASET_FAILED' || n.type === 'SHARE_LOCKED' ? 'error' : 'success',
    timestamp: n.createdAt,
    read: n.read,
  }));
  const notifications = [...local.notifications, ...serverItems]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .slice(0, MAX_NOTIFICATIONS);
  const unreadCount = local.unreadCount + (server.data?.unreadCount ?? 0);
  const markServerRead = async () => {
    if (!server.data?.unreadCount) return;
    try {
      const { unreadCount: left } = await markServerNotificationsRead();
      await server.mutate(
        (current) => current && { items: current.items.map((n) => ({ ...n, read: true })), unreadCount: left },
        { revalidate: false },
      );
    } catch {
      // The badge stays as it is; the next refresh shows what the server holds.
    }
  };
  const markAllRead = () => {
    local.markAllRead();
    void markServerRead();
  };
  const clear = () => {
    local.clear();
    void markServerRead();
  };
  return (
    <Popover.Root positioning={{ placement: 'bottom-end' }} onOpenChange={(e) => !e.open && markAllRead()}>
      {/* The button itself is the trigger: aria-expanded and aria-haspopup belong to a button, not its frame. */}
      <Box position="relative">
        <Popover.Trigger asChild>
          <IconButton
            aria-label={unreadCount ? `Notifications (${unreadCount} unread)` : 'Notifications'}
            variant="ghost"
            size="sm"
          >
            <LuBell />
          </IconButton>
        </Popover.Trigger>
        {unreadCount > 0 && (
          <Float placement="top-end" offset="1.5">
            <Badge size="xs" colorPalette="red" variant="solid" data-testid="notification-count">
              {unreadCount}
            </Badge>
          </Float>
        )}
      </Box>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="sm">
            <Popover.Header>
              <HStack justify="space-between">
                <Text fontWeight="semibold">Notifications</Text>
                {notifications.length > 0 && (
                  <Button size="xs" variant="ghost" onClick={clear}>
                    Clear all
                  </Button>
                )}
              </HStack>
            </Popover.Header>
            <Popover.Body maxH="96" overflowY="auto" aria-label="Notification list">
              {notifications.length === 0 ? (
                <Text color="fg.muted">No notifications yet</Text>
              ) : (
                <Stack as="ul" gap="3" listStyleType="none">
                  {notifications.map((n) => (
                    <Box as="li" key={n.id} fontWeight={n.read ? 'normal' : 'semibold'}>
                      {n.href ? <Link to={n.href}>{n.title}</Link> : <Text>{n.title}</Text>}
                      {n.description && (
                        <Text fontSize="sm" color="fg.muted">
                          {n.description}
                        </Text>
                      )}
                      <Text fontSize="xs" color="fg.subtle">
                        {formatDateTime(n.timestamp)}
                      </Text>
                    </Box>
                  ))}
                </Stack>
              )}
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
