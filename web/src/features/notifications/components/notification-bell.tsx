import { Badge, Box, Button, Float, HStack, IconButton, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { LuBell } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { useNotifications } from '#web/features/notifications/hooks/use-notifications.tsx';
import { formatDateTime } from '#web/lib/format.ts';

export function NotificationBell() {
  const { notifications, unreadCount, markAllRead, clear } = useNotifications();
  return (
    <Popover.Root positioning={{ placement: 'bottom-end' }} onOpenChange={(e) => !e.open && markAllRead()}>
      <Popover.Trigger asChild>
        <Box position="relative">
          <IconButton
            aria-label={unreadCount ? `Notifications (${unreadCount} unread)` : 'Notifications'}
            variant="ghost"
            size="sm"
          >
            <LuBell />
          </IconButton>
          {unreadCount > 0 && (
            <Float placement="top-end" offset="1.5">
              <Badge size="xs" colorPalette="red" variant="solid" data-testid="notification-count">
                {unreadCount}
              </Badge>
            </Float>
          )}
        </Box>
      </Popover.Trigger>
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
