import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { AdminOverview } from '#web/features/hospital-admin/components/admin-overview.tsx';

/** /hospital-admin: the overview. */
export function HospitalAdminIndexRoute() {
  const { user } = useCurrentUser();
  return <AdminOverview firstName={user.firstName} />;
}
