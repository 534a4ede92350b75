import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { UiProvider } from '#web/components/ui/provider.tsx';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { AuthProvider } from '#web/features/auth/hooks/use-auth.tsx';
import { NotificationsProvider } from '#web/features/notifications/hooks/use-notifications.tsx';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <UiProvider>
      <SWRConfig value={{ revalidateOnFocus: true, shouldRetryOnError: false }}>
        <AuthProvider>
          <NotificationsProvider>
            {children}
            <Toaster />
          </NotificationsProvider>
        </AuthProvider>
      </SWRConfig>
    </UiProvider>
  );
}
