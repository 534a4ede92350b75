import { HospitalSettingsPage } from '#web/features/settings/components/hospital-settings-page.tsx';

/** /hospital-admin/settings: the hospital settings page (docs/screens.md#hospital-settings-page). */
export function HospitalSettingsRoute() {
  return <HospitalSettingsPage />;
}
