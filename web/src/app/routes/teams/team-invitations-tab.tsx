import { TeamInvitations } from '#web/features/invitations/components/team-invitations.tsx';

/** The Invitations tab of the team page (docs/screens.md#team-invitations), for the team's lead or a hospital admin. */
export function TeamInvitationsTab({ teamId }: { teamId: string }) {
  return <TeamInvitations teamId={teamId} />;
}
