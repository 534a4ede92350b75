import { LuSettings } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /settings (every role). */
export function SettingsRoute() {
  return (
    <PagePurpose
      title="Settings"
      icon={<LuSettings />}
      summary="Settings hold your profile, security and notification preferences, and for administrators the system and storage settings."
    />
  );
}
