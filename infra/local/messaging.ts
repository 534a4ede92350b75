import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, keepMessage, type StoredMail } from './mail.ts';

/**
 * The twin's SES and SNS: the functions send through the same SESv2 and SNS clients as in the cloud
 * (functions/adapters/mail/ses-mailer.ts, sms/sns-sms.ts), pointed here by SES_ENDPOINT and SNS_ENDPOINT, and every
 * message lands in the outbox the mail page shows (mail.ts, docs/local-twin.md#mail). Nothing leaves the machine.
 */

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Tag = { Name?: unknown; Value?: unknown };
type Text = { Data?: unknown } | undefined;
type SendEmailRequest = {
  FromEmailAddress?: unknown;
  Destination?: { ToAddresses?: unknown };
  Content?: { Simple?: { Subject?: Text; Body?: { Text?: Text; Html?: Text } }; Raw?: unknown; Template?: unknown };
  EmailTags?: Tag[];
};

/** The outbox's record of a SESv2 SendEmail request, or why SES would refuse it. */
export function mailOfSendEmail(request: SendEmailRequest): Omit<StoredMail, 'id' | 'at'> | { refused: string } {
  const to = request.Destination?.ToAddresses;
  if (typeof request.FromEmailAddress !== 'string') return { refused: 'FromEmailAddress is required' };
  if (!Array.isArray(to) || to.length === 0) return { refused: 'Destination.ToAddresses is required' };
  const simple = request.Content?.Simple;
  // The product sends simple content only (ses-mailer.ts); raw and templated messages are not kept here.
  if (!simple) return { refused: 'The twin keeps simple content only' };
  const data = (text: Text) => (typeof text?.Data === 'string' ? text.Data : '');
  const tag = (name: string) => {
    const value = request.EmailTags?.find((t) => t.Name === name)?.Value;
    return typeof value === 'string' ? value : undefined;
  };
  const hospitalId = tag('hospitalId');
  const invitationId = tag('invitationId');
  return {
    from: request.FromEmailAddress,
    to: to.map(String).join(', '),
    subject: data(simple.Subject),
    text: data(simple.Body?.Text),
    html: data(simple.Body?.Html),
    tag: tag('kind') ?? '',
    ...(hospitalId && invitationId ? { refs: { hospitalId, invitationId } } : {}),
  };
}

/**
 * SESv2 SendEmail (`POST /v2/email/outbound-emails`, REST with JSON bodies; Amazon SES API v2 reference, SendEmail):
 * answers `{ MessageId }`, or BadRequestException as SES does for a request it cannot send.
 */
export async function handleSesV2(req: IncomingMessage, res: ServerResponse, path: string, mailDir: string) {
  const body = await readBody(req);
  const answer = (status: number, payload: unknown, errorType?: string) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    });
    res.end(JSON.stringify(payload));
  };
  if (req.method !== 'POST' || path.split('?')[0] !== '/v2/email/outbound-emails')
    return answer(404, { message: 'The twin answers SendEmail only' }, 'NotFoundException');
  let request: SendEmailRequest;
  try {
    request = JSON.parse(body || '{}') as SendEmailRequest;
  } catch {
    return answer(400, { message: 'The request body is not JSON' }, 'BadRequestException');
  }
  const mail = mailOfSendEmail(request);
  if ('refused' in mail) return answer(400, { message: mail.refused }, 'BadRequestException');
  const stored = keepMessage(mailDir, mail);
  answer(200, { MessageId: stored.id });
}

/**
 * SNS Publish to a phone number (query protocol: a form body with `Action=Publish`; Amazon SNS API reference,
 * Publish): the text is kept in the outbox addressed to the number. Publishing to a topic or an endpoint is refused,
 * as the product never does it.
 */
export async function handleSns(req: IncomingMessage, res: ServerResponse, mailDir: string) {
  const form = new URLSearchParams(await readBody(req));
  const requestId = randomUUID();
  const xml = (status: number, content: string) => {
    res.writeHead(status, { 'content-type': 'text/xml' });
    res.end(content);
  };
  const refuse = (code: string, message: string) =>
    xml(
      400,
      `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code>` +
        `<Message>${escapeHtml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
    );
  if (req.method !== 'POST' || form.get('Action') !== 'Publish')
    return refuse('InvalidAction', 'The twin answers Publish only');
  const phone = form.get('PhoneNumber');
  const text = form.get('Message');
  if (!phone) return refuse('InvalidParameter', 'The twin publishes to phone numbers only');
  if (text === null) return refuse('InvalidParameter', 'Message is required');
  const stored = keepMessage(mailDir, {
    // A text message has no sender address; the page shows the service it came through.
    from: 'SNS',
    to: phone,
    subject: 'Text message',
    text,
    html: `<pre>${escapeHtml(text)}</pre>`,
    tag: 'sms',
  });
  xml(
    200,
    `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>${stored.id}</MessageId>` +
      `</PublishResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></PublishResponse>`,
  );
}
