import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSesMailer, sendEmailInput, type SesSdk } from '#functions/adapters/mail/ses-mailer.ts';
import { invitationEmail } from '#shared/domain/invitations/email.ts';
import { createSnsSms } from '#functions/adapters/sms/sns-sms.ts';
import { handleMailPage, readMessages } from '#infra/local/mail.ts';
import { handleSesV2, handleSns } from '#infra/local/messaging.ts';

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

describe("the local twin's SES and SNS stand-ins and its mail page", () => {
  const dir = mkdtempSync(join(tmpdir(), 'iws-mail-'));
  let server: Server;
  let base = '';
  beforeAll(async () => {
    // The SDK signs every request; the stand-ins accept any key pair.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname.startsWith('/_aws/ses/'))
        return void handleSesV2(req, res, url.pathname.slice('/_aws/ses'.length), dir);
      if (url.pathname.startsWith('/_aws/sns')) return void handleSns(req, res, dir);
      if (!handleMailPage(req, res, url, dir)) {
        res.writeHead(418);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what the SESv2 mailer sends and shows it on /_mail in plain text and HTML', async () => {
    // Prepare: the production mailer, pointed at the stand-in.
    const mailer = createSesMailer({
      region: 'us-east-1',
      endpoint: `${base}/_aws/ses`,
      from: () => 'no-reply@imaging.local',
      configurationSet: () => 'imaging-local-mail',
    });
    await mailer.send(message);
    const stored = readMessages(dir).find((m) => m.to === 'robin@x.test');
    expect(stored).toMatchObject({
      to: 'robin@x.test',
      from: 'no-reply@imaging.local',
      subject: message.subject,
      text: message.text,
      html: message.html,
      tag: 'invitation',
      refs: { hospitalId: 'hosp-northside', invitationId: 'inv-1' },
    });

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
    expect(json.items.map((m) => m.id)).toContain(stored!.id);
    expect((await fetch(`${base}/_mail/..%2Fsecret`)).status).toBe(404);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(418);
  });

  it('keeps what the SNS sender publishes to a phone number, addressed to the number', async () => {
    // Prepare: the production SMS sender, pointed at the stand-in.
    const sms = createSnsSms({ region: 'us-east-1', endpoint: `${base}/_aws/sns` });

    // Act
    await sms.send({ to: '+15550100', text: 'Your code is 123456 <ok>' });

    // Assess
    const stored = readMessages(dir).find((m) => m.to === '+15550100');
    expect(stored).toMatchObject({
      subject: 'Text message',
      text: 'Your code is 123456 <ok>',
      html: '<pre>Your code is 123456 &lt;ok&gt;</pre>',
      tag: 'sms',
    });
  });

  it('refuses what SES would not send, as SES does', async () => {
    const answer = await fetch(`${base}/_aws/ses/v2/email/outbound-emails`, {
      method: 'POST',
      body: JSON.stringify({ FromEmailAddress: 'a@b.test', Destination: { ToAddresses: [] } }),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-amzn-errortype')).toBe('BadRequestException');
  });
});
