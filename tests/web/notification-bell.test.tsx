// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the test is about how the bell merges the server's notifications with the session's.
const api = vi.hoisted(() => ({
  unread: 1,
  marked: [] as unknown[],
}));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(async (path: string, _schema: unknown, options?: { body?: unknown }) => {
    if (path === '/api/notifications/read') {
      api.marked.push(options?.body);
      api.unread = 0;
      return { unreadCount: 0 };
    }
    return {
      items: [
        {
          id: 'n1',
          type: 'DATASET_COMPLETE',
          title: 'Dataset processing complete',
          description: 'Your dataset is ready to view.',
          href: '/datasets/d1',
          createdAt: '2026-01-01T10:00:00.000Z',
          read: api.unread === 0,
        },
      ],
      unreadCount: api.unread,
    };
  }),
}));

import { system } from '#web/components/ui/provider.tsx';
import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { NotificationsProvider, useNotifications } from '#web/features/notifications/hooks/use-notifications.tsx';

afterEach(cleanup);
stubResizeObserver();

function Notify() {
  const { notify } = useNotifications();
  return <button onClick={() => notify({ title: 'Upload finished' })}>notify</button>;
}

describe('the notification bell', () => {
  it("counts the server's unread with the session's, lists both, and marks the server's read when closed", async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <MemoryRouter>
            <NotificationsProvider>
              <Notify />
              <NotificationBell />
            </NotificationsProvider>
          </MemoryRouter>
        </SWRConfig>
      </ChakraProvider>,
    );

    // Act
    fireEvent.click(screen.getByText('notify'));
    await waitFor(() => expect(screen.getByTestId('notification-count').textContent).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: /^Notifications/ }));
    await screen.findByText('Dataset processing complete');
    const listed = screen.getByText('Upload finished');
    await act(async () => {
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    });

    // Assess
    expect(listed).toBeTruthy();
    await waitFor(() => expect(api.marked).toEqual([{}]));
    await waitFor(() => expect(screen.queryByTestId('notification-count')).toBeNull());
  });
});
