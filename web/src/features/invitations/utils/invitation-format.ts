import type { Invitation } from '#shared/schemas/api/invitations.ts';

/** docs/domain.md#invitations: sent "MMM dd, HH:mm", expiry "MMM dd, yyyy". */
export function formatSentAt(iso: string | null): string {
  if (!iso) return 'Not sent';
  const d = new Date(iso);
  const month = d.toLocaleString('en-US', { month: 'short' });
  const day = String(d.getDate()).padStart(2, '0');
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return `${month} ${day}, ${time}`;
}

export function formatExpiry(iso: string | null): string {
  if (!iso) return 'No expiry';
  const d = new Date(iso);
  return `${d.toLocaleString('en-US', { month: 'short' })} ${String(d.getDate()).padStart(2, '0')}, ${d.getFullYear()}`;
}

export const LIST_STATUS_LABELS: Record<Invitation['listStatus'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  sent: { label: 'Sent', color: 'blue' },
  accepted: { label: 'Accepted', color: 'green' },
  expired: { label: 'Expired', color: 'gray' },
  declined: { label: 'Declined', color: 'orange' },
  cancelled: { label: 'Cancelled', color: 'red' },
};

/** The Pending tab's filter over name, e-mail and department (case-insensitive). */
export function matchesSearch(invitation: Invitation, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [invitation.fullName, invitation.email, invitation.department].some((v) => v?.toLowerCase().includes(q));
}

/** The Invitation Center's toast texts and durations (docs/error-catalogue.md#invitations). */
export const INVITATION_TOASTS = {
  sendFailed: {
    title: 'Failed to Send Invitation',
    description: 'Please check your connection and try again.',
    duration: 8000,
  },
  bulkFailed: {
    title: 'Failed to Send Bulk Invitations',
    description: 'Some invitations may not have been sent. Please check the list and retry.',
    duration: 10000,
  },
  resendFailed: { title: 'Failed to Resend Invitation', description: 'Please try again later.', duration: 5000 },
  sent: (name: string, email: string) => ({
    title: 'Invitation Sent Successfully!',
    description: `Invitation sent to ${name} (${email})`,
    duration: 6000,
  }),
  bulkSent: (n: number) => ({
    title: 'Bulk Invitations Sent Successfully!',
    description: `${n} invitation(s) sent successfully`,
    duration: 7000,
  }),
  resent: (who: string) => ({
    title: 'Invitation Resent!',
    description: `Invitation resent to ${who}`,
    duration: 4000,
  }),
} as const;
