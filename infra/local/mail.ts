import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';

/**
 * The twin's outbox and mail page (docs/local-twin.md#mail): the SES and SNS stand-ins (messaging.ts) and the
 * Cognito stand-in keep every message as a JSON file under the data folder; this lists them newest first and shows
 * each in plain text and HTML, so a person trying the product can open an invitation and follow its link.
 * GET /_mail, /_mail/<id>, /_mail/<id>/html, /_mail/messages.json.
 */
export const MAIL_PAGE_PATH = '/_mail';

/**
 * A message as the outbox keeps it: one JSON file per message; `tag` is the message's `kind` tag (MailMessage). A
 * text message is kept the same way, addressed to the phone number, with the subject "Text message" and the tag `sms`.
 */
export type StoredMail = Omit<MailMessage, 'tag'> & { id: string; at: string; from: string; tag: string };

const ID = /^[A-Za-z0-9-]+$/;

/** Keeps one message in the outbox (written whole, then renamed, so the page never reads half a file). */
export function keepMessage(
  mailDir: string,
  message: Omit<StoredMail, 'id' | 'at'>,
  now: Date = new Date(),
): StoredMail {
  mkdirSync(mailDir, { recursive: true });
  const at = now.toISOString();
  const id = `${at.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  const stored: StoredMail = { ...message, id, at };
  const path = join(mailDir, `${id}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(stored, null, 2));
  renameSync(`${path}.tmp`, path);
  return stored;
}

export function readMessages(mailDir: string): StoredMail[] {
  if (!existsSync(mailDir)) return [];
  return readdirSync(mailDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(mailDir, name), 'utf8')) as StoredMail];
      } catch {
        return [];
      }
    });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,Arial,sans-serif;margin:24px;color:#1a202c}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #e2e8f0;padding:8px;text-align:left}pre{white-space:pre-wrap;background:#f7fafc;padding:12px}
iframe{width:100%;height:520px;border:1px solid #e2e8f0}a{color:#2b6cb0}</style></head><body>${body}</body></html>`;
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** Answers the mail page's paths; returns false for any other path. */
export function handleMailPage(req: IncomingMessage, res: ServerResponse, url: URL, mailDir: string): boolean {
  if (url.pathname !== MAIL_PAGE_PATH && !url.pathname.startsWith(`${MAIL_PAGE_PATH}/`)) return false;
  req.resume();
  if (req.method !== 'GET') {
    send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: 'GET' });
    return true;
  }
  const rest = url.pathname.slice(MAIL_PAGE_PATH.length).replace(/^\/+|\/+$/g, '');
  const messages = readMessages(mailDir);
  if (rest === 'messages.json') {
    send(res, 200, 'application/json', JSON.stringify({ items: messages }));
    return true;
  }
  if (rest === '') {
    const rows = messages
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.at)}</td><td>${escapeHtml(m.to)}</td><td><a href="${MAIL_PAGE_PATH}/${escapeHtml(m.id)}">${escapeHtml(m.subject)}</a></td></tr>`,
      )
      .join('');
    send(
      res,
      200,
      'text/html; charset=utf-8',
      page(
        'Mail',
        `<h1>Mail sent by the local twin</h1><p>${messages.length} message(s), newest first. Nothing here leaves this machine.</p>` +
          (messages.length
            ? `<table><thead><tr><th>Sent</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p>No mail yet.</p>'),
      ),
    );
    return true;
  }
  const [id, part] = rest.split('/');
  const message = id && ID.test(id) ? messages.find((m) => m.id === id) : undefined;
  if (!message || (part !== undefined && part !== 'html')) {
    send(res, 404, 'text/plain; charset=utf-8', 'No such message');
    return true;
  }
  if (part === 'html') {
    // The message's own HTML, sandboxed: no scripts, links open in a new tab.
    send(res, 200, 'text/html; charset=utf-8', message.html, {
      'content-security-policy':
        "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    });
    return true;
  }
  send(
    res,
    200,
    'text/html; charset=utf-8',
    page(
      message.subject,
      `<p><a href="${MAIL_PAGE_PATH}">All mail</a></p><h1>${escapeHtml(message.subject)}</h1>
<p>From ${escapeHtml(message.from)} to ${escapeHtml(message.to)}, ${escapeHtml(message.at)}</p>
<h2>HTML</h2><iframe title="HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" src="${MAIL_PAGE_PATH}/${escapeHtml(message.id)}/html"></iframe>
<h2>Plain text</h2><pre>${escapeHtml(message.text)}</pre>`,
    ),
  );
  return true;
}
