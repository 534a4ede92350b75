import { HospitalManagement } from '#web/features/hospitals/components/hospital-management.tsx';

/** /hospitals (super admin; the router's guard shows "Access Denied" to others). */
export function HospitalsRoute() {
  return <HospitalManagement />;
}
