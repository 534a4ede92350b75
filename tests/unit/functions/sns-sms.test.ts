import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSnsSms } from '#functions/adapters/sms/sns-sms.ts';
import { apiFunctionDeclarations } from '#infra/function-declarations.ts';

const sns = mockClient(SNSClient);
beforeEach(() => sns.reset());

describe('text messages in the cloud (SNS)', () => {
  it('publishes the code straight to the phone number as a transactional message', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
    const sms = createSnsSms({ region: 'eu-west-1', client: new SNSClient({ region: 'eu-west-1' }) });

    await sms.send({ to: '+15555550100', text: 'Your code to view your MRI study of 2026-03-01 is 123456.' });

    const calls = sns.commandCalls(PublishCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      PhoneNumber: '+15555550100',
      Message: 'Your code to view your MRI study of 2026-03-01 is 123456.',
      MessageAttributes: { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } },
    });
  });

  // Patient codes, and the security alerts of the domains that raise them (docs/domain.md#notifications).
  it('lets only the patient-access function and the domains that raise security alerts publish', () => {
    const publishers = Object.entries(apiFunctionDeclarations())
      .filter(([, d]) => d!.sendsSms)
      .map(([domain]) => domain);
    expect(publishers.sort()).toEqual(['integrations', 'patient-access', 'scim', 'settings']);
  });
});
