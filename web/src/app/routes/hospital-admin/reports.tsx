import { LuChartBar } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /hospital-admin/reports: Reports & Analytics (docs/screens.md#hospital-admin-area). */
export function HospitalAdminReportsRoute() {
  return (
    <PagePurpose
      title="Reports & Analytics"
      icon={<LuChartBar />}
      summary="Reports & Analytics builds reports of the hospital's studies, teams and usage over a chosen period and exports them."
    />
  );
}
