import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MailMessage, Mailer } from '#shared/domain/invitations/ports.ts';

/** A message as the local mail stand-in keeps it: one JSON file per message (docs/local-twin.md#mail). */
export type StoredMail = MailMessage & { id: string; at: string; from: string };

/**
 * The local twin's mail stand-in: every message is written under the data folder, never sent anywhere. The twin's
 * /_mail page lists and shows them, so a person trying the product can open an invitation in the browser.
 */
export function createFileMailer(options: { dir: string; from: string; now?: () => Date }): Mailer {
  return {
    async send(message) {
      mkdirSync(options.dir, { recursive: true });
      const at = (options.now?.() ?? new Date()).toISOString();
      const id = `${at.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
      const stored: StoredMail = { ...message, id, at, from: options.from };
      const path = join(options.dir, `${id}.json`);
      writeFileSync(`${path}.tmp`, JSON.stringify(stored, null, 2));
      renameSync(`${path}.tmp`, path);
    },
  };
}
