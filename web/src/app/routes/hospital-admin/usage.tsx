import { LuGauge } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /hospital-admin/usage: Usage & Billing (docs/screens.md#hospital-admin-area). */
export function HospitalAdminUsageRoute() {
  return (
    <PagePurpose
      title="Usage & Billing"
      icon={<LuGauge />}
      summary="Usage & Billing shows the hospital's storage and compute against its plan's limits, per team, with the plan, the next bill and a health badge when usage approaches or exceeds the limits."
    />
  );
}
