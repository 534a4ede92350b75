import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import type { SmsSender } from '#shared/domain/shares/ports.ts';

/**
 * Text messages: SNS Publish straight to an E.164 phone number, marked Transactional so carriers deliver
 * a one-time code promptly rather than as marketing (docs/domain.md#shares). The text names no patient.
 */
export function createSnsSms(options: { region: string; endpoint?: string; client?: SNSClient }): SmsSender {
  const client =
    options.client ??
    prepareClient(
      new SNSClient({ region: options.region, ...(options.endpoint ? { endpoint: options.endpoint } : {}) }),
    );
  return {
    async send(message) {
      await client.send(
        new PublishCommand({
          PhoneNumber: message.to,
          Message: message.text,
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          },
        }),
      );
    },
  };
}
