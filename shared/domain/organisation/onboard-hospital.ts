import type { Caller } from '#shared/domain/auth/caller.ts';
import type { InvitationDeps } from '#shared/domain/invitations/deps.ts';
import { issueInvitation } from '#shared/domain/invitations/send-invitation.ts';
import type { CreateHospitalRequest, Hospital } from '#shared/schemas/api/organisation.ts';
import { createHospital } from './hospitals.ts';
import type { OrganisationDeps } from './ports.ts';

/**
 * Add Hospital as a whole (docs/domain.md#hospitals): the hospital, its first hospital admin as an INVITED user, and
 * that admin's invitation e-mail. Accepting the link activates the INVITED record (docs/states.md#users); if the
 * e-mail could not be sent, the invitation stays pending and the Invitation Center's Resend sends it.
 */
export async function onboardHospital(
  request: CreateHospitalRequest,
  caller: Caller,
  deps: OrganisationDeps & InvitationDeps,
): Promise<Hospital> {
  const hospital = await createHospital(request, caller, deps);
  await issueInvitation(
    {
      hospitalId: hospital.id,
      email: request.adminEmail,
      fullName: `${request.adminFirstName} ${request.adminLastName}`.trim(),
      role: 'HOSPITAL_ADMIN',
      department: null,
      team: null,
      invitedBy: { userId: caller.userId, name: `${caller.firstName} ${caller.lastName}`.trim() || caller.email },
    },
    deps,
  );
  return hospital;
}
