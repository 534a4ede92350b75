import { LuMail } from 'react-icons/lu';
import { PagePurpose } from '#web/components/ui/page-purpose.tsx';

/** /hospital-admin/invitations: the Invitation Center (docs/screens.md#hospital-admin-area), built by the joining issue. */
export function HospitalAdminInvitationsRoute() {
  return (
    <PagePurpose
      title="Invitations"
      icon={<LuMail />}
      summary="The Invitation Center invites team leads, members and guests by e-mail, one at a time or in bulk from a CSV file, and lists every invitation with its status until it is accepted or expires."
    />
  );
}
