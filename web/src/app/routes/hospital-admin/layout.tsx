import { HospitalAdminLayout } from '#web/features/hospital-admin/components/hospital-admin-layout.tsx';

export function HospitalAdminLayoutRoute() {
  return <HospitalAdminLayout />;
}
