import type { Mailer } from '#shared/domain/invitations/ports.ts';
import type { SmsSender } from '#shared/domain/shares/ports.ts';

/**
 * The local twin's SMS outbox (docs/local-twin.md#mail): a text message is kept beside the e-mail, addressed to the
 * phone number, so the twin's /_mail page shows it. The cloud sends through SNS instead (sns-sms.ts).
 */
export function createOutboxSms(outbox: Mailer): SmsSender {
  return {
    async send(message) {
      await outbox.send({
        to: message.to,
        subject: 'Text message',
        text: message.text,
        html: `<pre>${message.text.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</pre>`,
        tag: 'patient-share-code',
      });
    },
  };
}
