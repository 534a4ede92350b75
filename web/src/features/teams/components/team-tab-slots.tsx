import { Button } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { LuChartLine, LuMail, LuShare2 } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';

/** What a tab of the team page is given. `canManage`: the viewer is the hospital admin. */
export type TabSlotProps = { teamId: string; canManage: boolean };
export type TabSlotName = 'invitations' | 'dicom' | 'analytics';
/**
 * The Invitations, DICOM shares and Analytics tabs are filled by the features that own them (docs/screens.md#teams-page):
 * the route passes their components here; until a feature provides one, the tab explains where that work lives.
 */
export type TabSlots = Partial<Record<TabSlotName, ComponentType<TabSlotProps>>>;

function InvitationsEmpty({ canManage }: TabSlotProps) {
  return (
    <EmptyBlock
      icon={<LuMail />}
      title="Invitations are sent from the Invitation Center"
      description={
        canManage
          ? 'Invite people into this team from the Invitation Center, one at a time or in bulk.'
          : 'Your hospital administrator invites people into this team from the Invitation Center.'
      }
    >
      {canManage && (
        <Button asChild variant="outline">
          <Link to={paths.hospitalAdminInvitations.getHref()}>Open the Invitation Center</Link>
        </Button>
      )}
    </EmptyBlock>
  );
}

function DicomSharesEmpty() {
  return (
    <EmptyBlock
      icon={<LuShare2 />}
      title="No DICOM shares for this team"
      description="Datasets shared with members of this team, and who may open them, are listed on this tab."
    >
      <Button asChild variant="outline">
        <Link to={paths.datasets.getHref()}>Go to Datasets</Link>
      </Button>
    </EmptyBlock>
  );
}

function AnalyticsEmpty() {
  return (
    <EmptyBlock
      icon={<LuChartLine />}
      title="No team analytics to show"
      description="Uploads, storage growth and member activity of this team over a period are charted on this tab; the Overview tab has the team's current figures."
    />
  );
}

export const DEFAULT_TAB_SLOTS: Record<TabSlotName, ComponentType<TabSlotProps>> = {
  invitations: InvitationsEmpty,
  dicom: DicomSharesEmpty,
  analytics: AnalyticsEmpty,
};
