import { LuChartBar } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /reports (super admin, hospital admin). */
export function ReportsRoute() {
  return (
    <PagePurpose
      title="Reports"
      icon={<LuChartBar />}
      summary="Reports summarise studies, processing, users and storage over a chosen period and export them."
    />
  );
}
