import type { Directory } from '#shared/domain/auth/ports.ts';
import type { AuditLog, Clock, IdGenerator, PageTokens } from '#shared/domain/ports.ts';
import type { PreferredNotificationDeps } from '#shared/domain/notifications/preferences.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { IdentityAdmin, InvitationDirectory, InvitationRepository, Mailer, TokenMint } from './ports.ts';

/** The ports the invitation core uses. */
export type InvitationDeps = {
  invitations: InvitationRepository;
  invitationDirectory: InvitationDirectory;
  directory: Directory;
  /**
   * The team's seat an acceptance takes (one conditional write on its memberCount) and gives back on failure; the
   * hospital's users, for notifications to its admins.
   */
  organisation: Pick<OrganisationStore, 'claimTeamSeat' | 'add' | 'listUsers'>;
  mailer: Mailer;
  identity: IdentityAdmin;
  tokens: TokenMint;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  /** Seals the lists' continuation keys to the hospital and the list. */
  pageTokens: PageTokens;
  /** Origin of the site, where the invitee's link opens (docs/screens.md#accept-invitation). */
  siteOrigin: string;
  /** The inviter's inbox and notification preferences (docs/domain.md#notifications). */
  notifications?: PreferredNotificationDeps['notifications'];
  settings?: PreferredNotificationDeps['settings'];
};

export const ACCEPT_PATH = '/invitations/accept';

export function acceptLink(siteOrigin: string, token: string): string {
  return `${siteOrigin.replace(/\/+$/, '')}${ACCEPT_PATH}?token=${encodeURIComponent(token)}`;
}
