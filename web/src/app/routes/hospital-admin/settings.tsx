import { LuSettings } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /hospital-admin/settings: the hospital settings page (docs/screens.md#hospital-admin-area). */
export function HospitalAdminSettingsRoute() {
  return (
    <PagePurpose
      title="Settings"
      icon={<LuSettings />}
      summary="Hospital settings hold the hospital's profile, security options, default roles, usage limits, patient-share defaults, compliance toggles and notification preferences."
    />
  );
}
