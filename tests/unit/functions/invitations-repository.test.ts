/**
 * The invitation writes as DynamoDB receives them: the invitation, its e-mail lock and the pending counters of the
 * hospital and the team in one TransactWriteItems, and the move out of PENDING likewise; a cancellation's reasons
 * mapped to the domain's errors.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { createInvitationRepository } from '#functions/adapters/dynamo/invitations-repository.ts';
import { ConflictError, EmailTakenError } from '#shared/domain/errors.ts';
import type { InvitationRecord } from '#shared/domain/invitations/ports.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());
const repository = () =>
  createInvitationRepository({ doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-test' });

const invitation: InvitationRecord = {
  id: 'inv-1',
  hospitalId: 'h1',
  email: 'Robin@X.test',
  emailKey: 'robin@x.test',
  fullName: 'Robin Lee',
  role: 'TEAM_MEMBER',
  teamRole: 'MEMBER',
  permissions: ['VIEW_DATASETS'],
  departmentId: 'd1',
  departmentName: 'Radiology',
  teamId: 't1',
  teamName: 'Neuroradiology',
  specialization: null,
  message: null,
  status: 'PENDING',
  tokenHash: 'a'.repeat(64),
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  sentAt: null,
  expiresAt: '2026-03-08T09:00:00.000Z',
  expiresInDays: 7,
  invitedByUserId: 'u-admin',
  invitedByName: 'Alex Morgan',
  acceptedAt: null,
  acceptedUserId: null,
};

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('invitations in the cloud table', () => {
  it('creates the invitation with its e-mail lock and both pending counters in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await repository().create(invitation);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(4);
    expect(items[0]!.Put).toMatchObject({
      Item: { pk: 'H#h1', sk: 'INVLOCK#robin@x.test', invitationId: 'inv-1' },
      ConditionExpression: 'attribute_not_exists(#pk)',
    });
    expect(items[1]!.Put!.Item).toMatchObject({
      pk: 'H#h1',
      sk: 'INVITE#inv-1',
      gsi3pk: `INVITETOKEN#${'a'.repeat(64)}`,
      entity: 'invitation',
    });
    expect(
      items.slice(2).map((i) => [i.Update!.Key, i.Update!.UpdateExpression, i.Update!.ExpressionAttributeValues]),
    ).toEqual([
      [{ pk: 'H#h1', sk: 'HOSPITAL' }, 'ADD pendingInvitationCount :d', { ':d': 1 }],
      [{ pk: 'H#h1', sk: 'TEAM#t1' }, 'ADD pendingInvitationCount :d', { ':d': 1 }],
    ]);
  });

  it('answers a held e-mail lock as EMAIL_ALREADY_INVITED', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None'));
    const error = await repository()
      .create(invitation)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailTakenError);
    expect((error as EmailTakenError).code).toBe('EMAIL_ALREADY_INVITED');
  });

  it('leaves PENDING only from PENDING, releasing the lock and taking one off both counters', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: { ...invitation, status: 'CANCELLED', pk: 'H#h1', sk: 'INVITE#inv-1' } });
    const result = await repository().leavePending(invitation, 'CANCELLED', { updatedAt: '2026-03-02T00:00:00.000Z' });
    expect(result.status).toBe('CANCELLED');
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Update).toMatchObject({
      Key: { pk: 'H#h1', sk: 'INVITE#inv-1' },
      ConditionExpression: '#status = :pending',
    });
    expect(items[1]!.Delete).toMatchObject({ Key: { pk: 'H#h1', sk: 'INVLOCK#robin@x.test' } });
    expect(items.slice(2).map((i) => i.Update!.ExpressionAttributeValues)).toEqual([{ ':d': -1 }, { ':d': -1 }]);

    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None'));
    await expect(repository().leavePending(invitation, 'ACCEPTED', {})).rejects.toThrow(ConflictError);
  });
});
