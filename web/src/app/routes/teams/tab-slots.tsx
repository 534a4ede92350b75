import { TeamAnalyticsTab } from '#web/features/teams/components/team-analytics.tsx';
import type { TabSlots } from '#web/features/teams/components/team-tab-slots.tsx';
import { TeamInvitationsTab } from './team-invitations-tab.tsx';
import { TeamSharesTab } from './team-shares-tab.tsx';

/**
 * The features that own the team page's Invitations, DICOM shares and Analytics tabs register their components here
 * (the app layer composes features); a tab without one shows where that work lives (docs/screens.md#teams-page).
 */
export const TEAM_TAB_SLOTS: TabSlots = {
  invitations: ({ teamId }) => <TeamInvitationsTab teamId={teamId} />,
  dicom: ({ teamId }) => <TeamSharesTab teamId={teamId} />,
  analytics: ({ teamId }) => <TeamAnalyticsTab teamId={teamId} />,
};
