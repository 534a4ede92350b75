import { useNavigate } from 'react-router-dom';
import { paths } from '#web/config/paths.ts';
import { useAuth, useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { SettingsPage } from '#web/features/settings/components/settings-page.tsx';

/** /settings for every role (docs/screens.md#settings-page); signing out everywhere ends this session too. */
export function SettingsRoute() {
  const { user } = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  return (
    <SettingsPage
      role={user.role}
      onSignedOut={async () => {
        await logout();
        navigate(paths.login.getHref(), { replace: true });
      }}
    />
  );
}
