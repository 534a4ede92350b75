import { useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { MyTeam } from '#web/features/teams/components/my-team.tsx';
import { NoTeamAccess } from '#web/features/teams/components/no-team-access.tsx';
import { TeamManagement, teamTabOf } from '#web/features/teams/components/team-management.tsx';
import { TeamsAdmin } from '#web/features/teams/components/teams-admin.tsx';
import { TEAM_TAB_SLOTS } from './tab-slots.tsx';

/** /teams: the hospital admin's teams and departments, the lead's Team Management, a member's My Team, or No Team Access. */
export function TeamsRoute() {
  const { user } = useCurrentUser();
  const [params] = useSearchParams();
  if (user.role === 'HOSPITAL_ADMIN') return <TeamsAdmin slots={TEAM_TAB_SLOTS} />;
  if (!user.teamId) return <NoTeamAccess />;
  if (user.role === 'TEAM_LEAD')
    return (
      <TeamManagement
        // A link to another tab while the page is open (a quick action, the browser's back) opens that tab.
        key={params.get('tab') ?? ''}
        teamId={user.teamId}
        canManage={false}
        slots={TEAM_TAB_SLOTS}
        initialTab={teamTabOf(params.get('tab'))}
      />
    );
  return <MyTeam teamId={user.teamId} />;
}
