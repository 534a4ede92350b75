import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { UserManagement } from '#web/features/users/components/user-management.tsx';
import { paths } from '#web/config/paths.ts';

/** /users (super admin across hospitals, hospital admin within theirs; the router's guard denies others). */
export function UsersRoute() {
  const { user } = useCurrentUser();
  return (
    <UserManagement
      asSuperAdmin={user.role === 'SUPER_ADMIN'}
      invitationsHref={paths.hospitalAdminInvitations.getHref()}
    />
  );
}
