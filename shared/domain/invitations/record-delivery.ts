import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { DeliveryStatus, InvitationRepository } from './ports.ts';

/**
 * A delivery event of an invitation e-mail as the mail service reports it (SES event publishing: eventType and the
 * message's tags). Only our ids travel in the tags; the recipient's address in the event is not kept.
 */
export type MailEvent = {
  eventType: string;
  tags: Record<string, string[] | undefined>;
};

const DELIVERY_OF: Record<string, DeliveryStatus> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  Complaint: 'complained',
  Reject: 'rejected',
};

/**
 * Records what became of an invitation's e-mail on the invitation, and bounces, complaints and rejects in the
 * hospital's audit log, so an admin sees why an invitee never answered. Other events and other mail are ignored.
 */
export async function recordMailEvent(
  event: MailEvent,
  deps: { invitations: InvitationRepository; audit: AuditLog; clock: Clock },
): Promise<'recorded' | 'ignored'> {
  const delivery = DELIVERY_OF[event.eventType];
  const hospitalId = event.tags.hospitalId?.[0];
  const invitationId = event.tags.invitationId?.[0];
  if (!delivery || !hospitalId || !invitationId || event.tags.kind?.[0] !== 'invitation') return 'ignored';
  const at = deps.clock.now();
  if (!(await deps.invitations.setDelivery(hospitalId, invitationId, delivery, at))) return 'ignored';
  if (delivery !== 'delivered')
    await deps.audit.record({
      hospitalId,
      action: 'INVITATION_EMAIL_FAILED',
      actorUserId: 'mail',
      actorName: 'Mail service',
      details: { invitationId, delivery },
    });
  return 'recorded';
}
