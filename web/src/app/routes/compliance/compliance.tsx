import { LuShieldCheck } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /compliance (super admin, hospital admin): the compliance center. */
export function ComplianceRoute() {
  return (
    <PagePurpose
      title="Compliance"
      icon={<LuShieldCheck />}
      summary="The compliance center lists who did what and when (the audit trail of every change and every access to patient data) and the HIPAA safeguards in force."
    />
  );
}
