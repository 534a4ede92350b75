import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { hasRole, type Role } from '#shared/vocabulary/roles.ts';
import { PageSpinner } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';
import { useAuth } from '#web/features/auth/hooks/use-auth.tsx';
import { AppShell } from './app-shell.tsx';
import { AccessDenied } from './routes/app/access-denied.tsx';

/** Signed-in routes: unauthenticated visitors go to /login and come back afterwards. */
export function ProtectedLayout() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <PageSpinner />;
  // After a deliberate sign-out the next user should not land on the previous user's page.
  if (auth.status === 'signed-out')
    return <Navigate to={paths.login.getHref(auth.byUser ? undefined : location.pathname + location.search)} replace />;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

/** Full-screen signed-in routes (the visualizer): same guard, no shell. */
export function ProtectedBare() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'loading') return <PageSpinner />;
  if (auth.status === 'signed-out')
    return <Navigate to={paths.login.getHref(location.pathname + location.search)} replace />;
  return <Outlet />;
}

/** A role gate showing "Access Denied" (docs/screens.md#access-denied), or redirecting where the route table says so. */
export function RequireRole({
  roles,
  area,
  redirectTo,
  children,
}: {
  roles: readonly Role[];
  area?: string;
  redirectTo?: string;
  children: ReactNode;
}) {
  const auth = useAuth();
  if (auth.status !== 'signed-in') return null;
  if (hasRole(auth.me.user.role, roles)) return <>{children}</>;
  if (redirectTo) return <Navigate to={redirectTo} replace />;
  return <AccessDenied area={area ?? 'this page'} />;
}
