import type { Context, SNSEvent } from 'aws-lambda';
import { recordMailEvent, type MailEvent } from '#shared/domain/invitations/record-delivery.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { logger, startInvocation } from '#functions/lib/logger.ts';

/**
 * Subscribed to the mail configuration set's event topic (docs/deployment.md#e-mail): each SES event (delivery,
 * bounce, complaint, reject) is recorded on its invitation. Never logs the event: it holds the recipient's address.
 */
export async function handler(event: SNSEvent, context?: Context): Promise<void> {
  startInvocation(context);
  const deps = await getDeps();
  for (const record of event.Records) {
    let parsed: MailEvent & { mail?: { tags?: MailEvent['tags'] } };
    try {
      parsed = JSON.parse(record.Sns.Message) as typeof parsed;
    } catch {
      logger.info('mail event ignored', { reason: 'not JSON' });
      continue;
    }
    const outcome = await recordMailEvent({ eventType: parsed.eventType, tags: parsed.mail?.tags ?? {} }, deps);
    logger.info('mail event', { eventType: parsed.eventType, outcome });
  }
}
