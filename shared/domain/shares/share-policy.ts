import { isHospitalWide, type Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { SharePolicyError } from '#shared/domain/errors.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import { DEFAULT_TEAM_SETTINGS, type TeamSettings } from '#shared/schemas/api/organisation.ts';
import type { Policy } from '#shared/schemas/api/policies.ts';

/**
 * The one enforcement point of the sharing switches (docs/domain.md#share-policy). Every path that creates a share
 * (team shares, patient shares) asks `sharePolicyFor` what is in force for the dataset's team and then applies the
 * checks below; the patient page opens only an ACTIVE share, so a share waiting for approval never opens.
 *
 * - `shareWithExternal` off: a patient share's recipient must have an e-mail address of one of the hospital's own
 *   domains (`recipientDomains`); a phone number alone cannot be told apart from anyone else's and is refused too.
 * - `requireApproval` (the resolved hospital and team policy) or the team's "Require approval for data sharing": a
 *   share by a member (or a lead, unless `autoApproveTeamLeads` is on) waits as PENDING_APPROVAL. A hospital admin's
 *   own share does not wait: the admins are the ones who approve.
 * - `allowPublicSharing`: every share names its recipient (a member, a team, or a patient's e-mail or phone, always
 *   behind a one-time code), so no public share exists and there is nothing for the switch to allow; it is not shown.
 */
export type SharePolicyDeps = PolicyDeps & {
  directory: Pick<Directory, 'getTeam'>;
  organisation?: Pick<OrganisationStore, 'listUsers'>;
};

export type SharePolicy = {
  policy: Policy;
  team: TeamSettings;
  /** The team's lead, who approves its members' shares. */
  leadUserId: string | null;
  /** The hospital's own e-mail domains, lower case. */
  recipientDomains: string[];
};

/** Hospital admins whose addresses give the default domains, as far as one page of the role index goes. */
const ADMINS_READ = 100;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The hospital's own domains: the list its admin keeps, or, while it has never saved one, the domains of its active
 * hospital admins' addresses (docs/domain.md#share-policy).
 */
async function recipientDomainsOf(hospitalId: string, policy: Policy, deps: SharePolicyDeps): Promise<string[]> {
  if (policy.recipientDomains) return policy.recipientDomains.map((d) => d.toLowerCase());
  if (!deps.organisation) return [];
  const admins = await deps.organisation.listUsers({
    hospitalId,
    role: 'HOSPITAL_ADMIN',
    status: 'ACTIVE',
    limit: ADMINS_READ,
  });
  return [...new Set(admins.items.map((u) => domainOf(u.email)).filter((d) => d.length > 0))];
}

/** What is in force for a share of a dataset of `teamId`: the resolved policy, the team's switches, the domains. */
export async function sharePolicyFor(
  hospitalId: string,
  teamId: string | null,
  deps: SharePolicyDeps,
): Promise<SharePolicy> {
  const [policy, team] = await Promise.all([
    policyFor(hospitalId, teamId, deps),
    teamId ? deps.directory.getTeam(hospitalId, teamId) : Promise.resolve(undefined),
  ]);
  const settings: TeamSettings = { ...DEFAULT_TEAM_SETTINGS, ...team?.settings };
  return {
    policy,
    team: settings,
    leadUserId: team?.leadUserId ?? null,
    recipientDomains: await recipientDomainsOf(hospitalId, policy, deps),
  };
}

/** `shareWithExternal` off: only an e-mail address of the hospital's own domains (SHARE_RECIPIENT_NOT_ALLOWED). */
export function assertRecipientAllowed(
  recipient: { email: string | null; phone: string | null },
  rules: SharePolicy,
): void {
  if (rules.policy.shareWithExternal) return;
  const email = recipient.email?.trim().toLowerCase();
  if (!email || !email.includes('@') || !rules.recipientDomains.includes(domainOf(email)))
    throw new SharePolicyError('SHARE_RECIPIENT_NOT_ALLOWED');
}

/** Whether the caller's new share waits for a team lead or hospital admin. */
export function approvalRequired(caller: Caller, rules: SharePolicy): boolean {
  if (isHospitalWide(caller)) return false;
  if (!rules.policy.requireApproval && !rules.team.requireApprovalForDataSharing) return false;
  return !(caller.role === 'TEAM_LEAD' && rules.policy.userAndTeam.autoApproveTeamLeads);
}

/** Who may decide on a waiting share: a hospital admin, or the lead of the dataset's team, never the one who asked. */
export function canDecide(caller: Caller, approval: { teamId: string | null; requestedByUserId: string }): boolean {
  if (approval.requestedByUserId === caller.userId) return false;
  if (isHospitalWide(caller)) return true;
  return caller.role === 'TEAM_LEAD' && approval.teamId !== null && approval.teamId === caller.teamId;
}

/** The queue a caller sees: every waiting share of the hospital for an admin, their team's for a lead. */
export function inQueueOf(caller: Caller, approval: { teamId: string | null }): boolean {
  if (isHospitalWide(caller)) return true;
  return caller.role === 'TEAM_LEAD' && approval.teamId !== null && approval.teamId === caller.teamId;
}
