/**
 * The invitation writes as DynamoDB receives them: the invitation, its e-mail lock and the pending counters of the
 * hospital and the team in one TransactWriteItems, and the move out of PENDING likewise; a cancellation's reasons
 * mapped to the domain's errors.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
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
      // The lists newest first, and the sparse by-expiry entries of a PENDING invitation not sent yet.
      gsi1pk: 'H#h1#INVITE',
      gsi1sk: '2026-03-01T09:00:00.000Z#inv-1',
      gsi2pk: 'H#h1#INVITE#TEAM#t1',
      gsi2sk: '2026-03-01T09:00:00.000Z#inv-1',
      gsi4pk: 'H#h1#INVITEPENDING',
      gsi5pk: 'H#h1#INVITEPENDING#TEAM#t1',
      gsi6pk: 'H#h1#INVITEUNSENT',
      gsi7pk: 'H#h1#INVITEUNSENT#TEAM#t1',
      gsi4sk: '2026-03-08T09:00:00.000Z#inv-1',
      entity: 'invitation',
    });
    const counters = items
      .slice(2)
      .map((i) => [
        i.Update!.Key,
        i.Update!.UpdateExpression,
        i.Update!.ExpressionAttributeNames,
        i.Update!.ExpressionAttributeValues,
      ]);
    const added = { '#pk': 'pk', '#c0': 'invitationCount', '#c1': 'pendingInvitationCount' };
    expect(counters).toEqual([
      [{ pk: 'H#h1', sk: 'HOSPITAL' }, 'ADD #c0 :d0, #c1 :d1', added, { ':d0': 1, ':d1': 1 }],
      [{ pk: 'H#h1', sk: 'TEAM#t1' }, 'ADD #c0 :d0, #c1 :d1', added, { ':d0': 1, ':d1': 1 }],
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
    expect(items.slice(2).map((i) => i.Update!.ExpressionAttributeValues)).toEqual([{ ':d0': -1 }, { ':d0': -1 }]);
    // Out of PENDING: its by-expiry entries go; the lists' entries stay.
    const removed = Object.values(items[0]!.Update!.ExpressionAttributeNames as Record<string, string>);
    expect(removed).toEqual(expect.arrayContaining(['gsi4pk', 'gsi5sk', 'gsi6pk', 'gsi7sk']));
    expect(removed).not.toContain('gsi1pk');
    expect(items[0]!.Update!.UpdateExpression).toContain('REMOVE');

    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None', 'None'));
    await expect(repository().leavePending(invitation, 'ACCEPTED', {})).rejects.toThrow(ConflictError);
  });

  it('counts an acceptance on the accepted counters of the hospital and the team', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: { ...invitation, status: 'ACCEPTED', pk: 'H#h1', sk: 'INVITE#inv-1' } });
    await repository().leavePending(invitation, 'ACCEPTED', {});
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.slice(2).map((i) => i.Update!.ExpressionAttributeNames)).toEqual([
      { '#pk': 'pk', '#c0': 'pendingInvitationCount', '#c1': 'acceptedInvitationCount' },
      { '#pk': 'pk', '#c0': 'pendingInvitationCount', '#c1': 'acceptedInvitationCount' },
    ]);
  });

  it('tallies from the counters and two Count queries over the by-expiry entries, never the invitations', async () => {
    ddb.on(GetCommand).resolves({
      Item: { invitationCount: 9, pendingInvitationCount: 4, acceptedInvitationCount: 3, expiredInvitationCount: 1 },
    });
    ddb.on(QueryCommand).resolves({ Count: 2 });
    const tally = await repository().tally('h1', 't1', '2026-03-09T00:00:00.000Z');
    expect(tally).toEqual({ all: 9, storedPending: 4, accepted: 3, storedExpired: 1, lapsed: 2, unsentLive: 2 });
    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries.map((q) => [q.IndexName, q.Select, q.ExpressionAttributeValues])).toEqual([
      ['gsi5', 'COUNT', { ':pk': 'H#h1#INVITEPENDING#TEAM#t1', ':bound': '2026-03-09T00:00:00.000Z$' }],
      ['gsi7', 'COUNT', { ':pk': 'H#h1#INVITEUNSENT#TEAM#t1', ':bound': '2026-03-09T00:00:00.000Z$' }],
    ]);
    expect(queries[0]!.KeyConditionExpression).toContain('#sk < :bound');
    expect(queries[1]!.KeyConditionExpression).toContain('#sk > :bound');
  });

  it("reads a page newest first from the team's index, filtered to one list status with only the names it uses", async () => {
    ddb.on(QueryCommand).resolves({ Items: [], LastEvaluatedKey: { gsi2pk: 'k' } });
    const page = await repository().listPage({
      hospitalId: 'h1',
      teamId: 't1',
      limit: 50,
      status: 'expired',
      now: '2026-03-09T00:00:00.000Z',
    });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(page.lastKey).toEqual({ gsi2pk: 'k' });
    expect(input).toMatchObject({
      IndexName: 'gsi2',
      ScanIndexForward: false,
      Limit: 50,
      FilterExpression: '#st = :expired OR (#st = :pending AND #exp <= :now)',
      ExpressionAttributeNames: { '#pk': 'gsi2pk', '#st': 'status', '#exp': 'expiresAt' },
      ExpressionAttributeValues: {
        ':pk': 'H#h1#INVITE#TEAM#t1',
        ':expired': 'EXPIRED',
        ':pending': 'PENDING',
        ':now': '2026-03-09T00:00:00.000Z',
      },
    });
    expect(Object.keys(input.ExpressionAttributeValues!)).toHaveLength(4);
  });
});
