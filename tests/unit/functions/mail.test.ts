import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileMailer } from '#functions/adapters/mail/file-mailer.ts';
import { createSesMailer, sendEmailInput, type SesSdk } from '#functions/adapters/mail/ses-mailer.ts';
import { invitationEmail } from '#shared/domain/invitations/email.ts';
import { handleMailPage, readMessages } from '#infra/local/mail.ts';

const message = invitationEmail({
  to: 'robin@x.test',
  recipientName: 'Robin <Lee>',
  hospitalName: 'Northside General',
  invitedByName: 'Alex Morgan',
  role: 'TEAM_MEMBER',
  teamName: 'Neuroradiology',
  message: 'Welcome <b>aboard</b>',
  link: 'https://site.test/invitations/accept?token=abc',
  expiresAt: '2026-03-08T09:00:00.000Z',
  refs: { hospitalId: 'hosp-northside', invitationId: 'inv-1' },
});

describe('the invitation e-mail', () => {
  it('has plain text and escaped HTML with the hospital, role, team, link and expiry', () => {
    expect(message.subject).toBe("You're invited to join Northside General on Imaging Workspace");
    expect(message.text).toContain('as Team Member');
    expect(message.text).toContain('https://site.test/invitations/accept?token=abc');
    expect(message.text).toContain('Mar 08, 2026');
    expect(message.html).toContain('Northside General (Neuroradiology)');
    expect(message.html).toContain('Robin &lt;Lee&gt;');
    expect(message.html).not.toContain('<b>aboard</b>');
  });
});

describe('the SESv2 mailer', () => {
  it('sends SendEmail with both bodies, the configuration set and the kind tag', async () => {
    const sent: unknown[] = [];
    class SESv2Client {
      middlewareStack = { add: () => {} };
      async send(command: { input: unknown }) {
        sent.push(command.input);
        return {};
      }
    }
    class SendEmailCommand {
      constructor(readonly input: unknown) {}
    }
    const mailer = createSesMailer({
      region: 'eu-west-1',
      from: () => 'no-reply@northside.org',
      configurationSet: () => 'imaging-dev-mail',
      sdk: async () => ({ SESv2Client, SendEmailCommand }) as unknown as SesSdk,
    });
    await mailer.send(message);
    expect(sent).toEqual([
      sendEmailInput(message, { from: 'no-reply@northside.org', configurationSet: 'imaging-dev-mail' }),
    ]);
    expect(sent[0]).toMatchObject({
      FromEmailAddress: 'no-reply@northside.org',
      Destination: { ToAddresses: ['robin@x.test'] },
      ConfigurationSetName: 'imaging-dev-mail',
      Content: { Simple: { Body: { Text: { Data: message.text }, Html: { Data: message.html } } } },
      EmailTags: [
        { Name: 'kind', Value: 'invitation' },
        { Name: 'hospitalId', Value: 'hosp-northside' },
        { Name: 'invitationId', Value: 'inv-1' },
      ],
    });
  });

  it('fails the send (the core keeps the invitation unsent) when no sender is configured', async () => {
    const mailer = createSesMailer({
      region: 'eu-west-1',
      from: () => {
        throw new Error('MAIL_FROM is not set');
      },
      configurationSet: () => 'imaging-dev-mail',
      sdk: async () =>
        ({
          SESv2Client: class {
            middlewareStack = { add: () => {} };
            send = async () => ({});
          },
          SendEmailCommand: class {},
        }) as unknown as SesSdk,
    });
    await expect(mailer.send(message)).rejects.toThrow('MAIL_FROM');
  });
});

describe("the local twin's mail stand-in and page", () => {
  const dir = mkdtempSync(join(tmpdir(), 'iws-mail-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each message as a file and shows it on /_mail in plain text and HTML', async () => {
    // Prepare
    const mailer = createFileMailer({ dir, from: 'no-reply@imaging.local' });
    await mailer.send(message);
    const [stored] = readMessages(dir);
    expect(stored).toMatchObject({ to: 'robin@x.test', from: 'no-reply@imaging.local', subject: message.subject });
    const server = createServer((req, res) => {
      if (!handleMailPage(req, res, new URL(req.url ?? '/', 'http://localhost'), dir)) {
        res.writeHead(418);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Act
      const list = await (await fetch(`${base}/_mail`)).text();
      const one = await (await fetch(`${base}/_mail/${stored!.id}`)).text();
      const html = await fetch(`${base}/_mail/${stored!.id}/html`);
      const json = (await (await fetch(`${base}/_mail/messages.json`)).json()) as { items: { id: string }[] };
      // Assess
      expect(list).toContain(`/_mail/${stored!.id}`);
      expect(list).toContain('robin@x.test');
      expect(one).toContain('https://site.test/invitations/accept?token=abc');
      expect(html.headers.get('content-security-policy')).toContain('sandbox');
      expect(await html.text()).toBe(message.html);
      expect(json.items.map((m) => m.id)).toEqual([stored!.id]);
      expect((await fetch(`${base}/_mail/..%2Fsecret`)).status).toBe(404);
      expect((await fetch(`${base}/elsewhere`)).status).toBe(418);
    } finally {
      server.close();
    }
  });
});
