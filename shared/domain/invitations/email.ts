import { ROLE_TITLES, type Role } from '#shared/vocabulary/roles.ts';
import type { MailMessage } from './ports.ts';

/**
 * The invitation e-mail (docs/domain.md#invitation-e-mail): plain text and HTML, the hospital's name, who invited,
 * the role and team, the link and its expiry. No patient data: nothing from datasets ever goes into a message.
 */
export type InvitationEmail = {
  to: string;
  recipientName: string | null;
  hospitalName: string;
  invitedByName: string;
  role: Role;
  teamName: string | null;
  message: string | null;
  link: string;
  expiresAt: string;
  refs?: MailMessage['refs'];
};

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** "Nov 25, 2026", in UTC so the text is the same wherever it is built. */
function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

export function invitationEmail(input: InvitationEmail): MailMessage {
  const roleTitle = ROLE_TITLES[input.role];
  const where = input.teamName ? `${input.hospitalName} (${input.teamName})` : input.hospitalName;
  const greeting = input.recipientName ? `Hello ${input.recipientName},` : 'Hello,';
  const expires = formatDate(input.expiresAt);
  const subject = `You're invited to join ${input.hospitalName} on Imaging Workspace`;
  const text = [
    greeting,
    '',
    `${input.invitedByName} invited you to join ${where} on Imaging Workspace as ${roleTitle}.`,
    ...(input.message ? ['', input.message] : []),
    '',
    'Accept the invitation and set your password here:',
    input.link,
    '',
    `This link works once and expires on ${expires}. If you did not expect this invitation, you can ignore this e-mail or decline it from the link.`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a202c;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${e(input.hospitalName)}</h1>
<p>${e(greeting)}</p>
<p>${e(input.invitedByName)} invited you to join <strong>${e(where)}</strong> on Imaging Workspace as <strong>${e(roleTitle)}</strong>.</p>
${input.message ? `<blockquote style="border-left:3px solid #cbd5e0;margin:0;padding-left:12px;white-space:pre-wrap">${e(input.message)}</blockquote>` : ''}
<p><a href="${e(input.link)}" style="display:inline-block;background:#3182ce;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Accept invitation</a></p>
<p style="font-size:13px;color:#4a5568">Or open this link: <a href="${e(input.link)}">${e(input.link)}</a></p>
<p style="font-size:13px;color:#4a5568">This link works once and expires on ${e(expires)}. If you did not expect this invitation, you can ignore this e-mail or decline it from the link.</p>
</body></html>`;
  return { to: input.to, subject, text, html, tag: 'invitation', ...(input.refs ? { refs: input.refs } : {}) };
}
