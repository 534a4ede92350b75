import { RecycleBin } from '#web/features/datasets/components/recycle-bin.tsx';

/** /hospital-admin/recycle-bin: deleted datasets, restorable for 30 days (docs/screens.md#hospital-admin-area). */
export function HospitalAdminRecycleBinRoute() {
  return <RecycleBin />;
}
