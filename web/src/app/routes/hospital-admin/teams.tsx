import { TeamsAdmin } from '#web/features/teams/components/teams-admin.tsx';
import { TEAM_TAB_SLOTS } from '#web/app/routes/teams/tab-slots.tsx';

/** /hospital-admin/teams: "Teams & Members", the same page as /teams for a hospital admin. */
export function HospitalAdminTeamsRoute() {
  return <TeamsAdmin slots={TEAM_TAB_SLOTS} />;
}
