import { InvitationCenter } from '#web/features/invitations/components/invitation-center.tsx';

/** /hospital-admin/invitations (docs/screens.md#invitation-center): hospital admins only, mounted under the admin area. */
export function HospitalAdminInvitationsRoute() {
  return <InvitationCenter />;
}
