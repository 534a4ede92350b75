import { LuShieldCheck } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /hospital-admin/compliance: Compliance & Audit (docs/screens.md#hospital-admin-area). */
export function HospitalAdminComplianceRoute() {
  return (
    <PagePurpose
      title="Compliance & Audit"
      icon={<LuShieldCheck />}
      summary="Compliance & Audit lists who did what and when in this hospital (the audit trail of every change) and the HIPAA safeguards in force."
    />
  );
}
