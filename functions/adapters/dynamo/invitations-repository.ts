import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { DepartmentRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, EmailTakenError } from '#shared/domain/errors.ts';
import type { InvitationDirectory, InvitationRecord, InvitationRepository } from '#shared/domain/invitations/ports.ts';
import type { Table } from './client.ts';
import { isConditionFailure, mapWriteError, queryAll, updateExpression, writeIfCondition } from './expressions.ts';

const P = TABLE_KEYS.primary;
const G3 = TABLE_KEYS.gsi3;

/** The first item on gsi3 under exactly this index key (an e-mail or a token hash names one item). */
async function firstOnGsi3(
  table: Table,
  indexKey: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: G3.index,
      KeyConditionExpression: '#pk = :pk AND #sk = :sk',
      ExpressionAttributeNames: { '#pk': G3.pk, '#sk': G3.sk },
      ExpressionAttributeValues: { ':pk': indexKey[G3.pk], ':sk': indexKey[G3.sk] },
    }),
  );
  return Items?.[0];
}

/** An update of `fields` that only applies while the invitation is still pending. */
function whilePending(fields: Record<string, unknown>) {
  const expression = updateExpression(fields);
  return {
    ...expression,
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#status': 'status' },
    ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ':pending': 'PENDING' },
  };
}

type Write =
  | { Put: Record<string, unknown> & { Item: Record<string, unknown> } }
  | { Update: Record<string, unknown> & { Key: Record<string, string> } }
  | { Delete: Record<string, unknown> & { Key: Record<string, string> } };

/**
 * Invitations in the hospital's partition, each with its e-mail lock and the pending counters
 * (`pendingInvitationCount` on the hospital item and on the team item, which the badges read) written in one
 * transaction.
 */
export function createInvitationRepository(table: Table): InvitationRepository {
  const { doc } = table;

  async function writeAll(writes: Write[]): Promise<void> {
    await doc.send(new TransactWriteCommand({ TransactItems: writes as never }));
  }

  const counterWrites = (invitation: InvitationRecord, delta: 1 | -1): Write[] => {
    const counter = (Key: Record<string, string>): Write => ({
      Update: {
        TableName: table.tableName,
        Key,
        UpdateExpression: 'ADD pendingInvitationCount :d',
        ConditionExpression: 'attribute_exists(#pk)',
        ExpressionAttributeNames: { '#pk': P.pk },
        ExpressionAttributeValues: { ':d': delta },
      },
    });
    return [
      counter(keys.hospital(invitation.hospitalId)),
      ...(invitation.teamId ? [counter(keys.team(invitation.hospitalId, invitation.teamId))] : []),
    ];
  };

  const item = (invitation: InvitationRecord) => ({
    ...keys.invitation(invitation.hospitalId, invitation.id),
    ...keys.invitationByTokenHash(invitation.tokenHash),
    entity: 'invitation',
    ...invitation,
  });

  async function get(hospitalId: string, invitationId: string): Promise<InvitationRecord | undefined> {
    const { Item } = await doc.send(
      new GetCommand({
        TableName: table.tableName,
        Key: keys.invitation(hospitalId, invitationId),
        ConsistentRead: true,
      }),
    );
    return Item ? (withoutKeys(Item) as InvitationRecord) : undefined;
  }

  return {
    async create(invitation) {
      const lock: Write = {
        Put: {
          TableName: table.tableName,
          Item: {
            ...keys.invitationEmailLock(invitation.hospitalId, invitation.emailKey),
            entity: 'invitationEmailLock',
            invitationId: invitation.id,
          },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': P.pk },
        },
      };
      try {
        await writeAll([
          lock,
          {
            Put: {
              TableName: table.tableName,
              Item: item(invitation),
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': P.pk },
            },
          },
          ...counterWrites(invitation, 1),
        ]);
      } catch (error) {
        if (isConditionFailure(error)) throw new EmailTakenError('EMAIL_ALREADY_INVITED');
        mapWriteError(error);
      }
    },
    get,
    async findByTokenHash(tokenHash) {
      const found = (await firstOnGsi3(table, keys.invitationByTokenHash(tokenHash))) as InvitationRecord | undefined;
      // The index is eventually consistent: read the item itself before trusting its status or hash.
      const current = found ? await get(found.hospitalId, found.id) : undefined;
      return current && current.tokenHash === tokenHash ? current : undefined;
    },
    async pendingIdForEmail(hospitalId, emailKey) {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: keys.invitationEmailLock(hospitalId, emailKey),
          ConsistentRead: true,
        }),
      );
      return Item?.invitationId as string | undefined;
    },
    async listForHospital(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.invitationPrefix);
      return items.map((i) => withoutKeys(i) as InvitationRecord);
    },
    async updatePending(hospitalId, invitationId, fields) {
      const indexFields = fields.tokenHash ? keys.invitationByTokenHash(fields.tokenHash) : {};
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.invitation(hospitalId, invitationId),
            ...whilePending({ ...fields, ...indexFields }),
            ReturnValues: 'ALL_NEW',
          }),
        );
        return withoutKeys(Attributes!) as InvitationRecord;
      } catch (error) {
        return mapWriteError(error);
      }
    },
    async setDelivery(hospitalId, invitationId, delivery, at) {
      return writeIfCondition(() =>
        doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.invitation(hospitalId, invitationId),
            UpdateExpression: 'SET delivery = :delivery, deliveryAt = :at',
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: { '#pk': P.pk },
            ExpressionAttributeValues: { ':delivery': delivery, ':at': at },
          }),
        ),
      );
    },
    async leavePending(invitation, status, fields) {
      try {
        await writeAll([
          {
            Update: {
              TableName: table.tableName,
              Key: keys.invitation(invitation.hospitalId, invitation.id),
              ...whilePending({ ...fields, status }),
            },
          },
          {
            Delete: {
              TableName: table.tableName,
              Key: keys.invitationEmailLock(invitation.hospitalId, invitation.emailKey),
              ConditionExpression: 'attribute_not_exists(#pk) OR invitationId = :id',
              ExpressionAttributeNames: { '#pk': P.pk },
              ExpressionAttributeValues: { ':id': invitation.id },
            },
          },
          ...counterWrites(invitation, -1),
        ]);
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError();
        mapWriteError(error);
      }
      return (await get(invitation.hospitalId, invitation.id))!;
    },
  };
}

/** Users by e-mail (gsi3) and the hospital's departments and teams, for the invitation core. */
export function createInvitationDirectory(table: Table): InvitationDirectory {
  const { doc } = table;
  return {
    async findUserByEmail(email) {
      const found = await firstOnGsi3(table, keys.userByEmail(email));
      return found ? (withoutKeys(found) as UserRecord) : undefined;
    },
    async listDepartments(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), 'DEPT#');
      return items.filter((i) => i.entity === 'department').map((i) => withoutKeys(i) as DepartmentRecord);
    },
    async listTeams(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), 'TEAM#');
      return items.filter((i) => i.entity === 'team').map((i) => withoutKeys(i) as TeamRecord & { isActive?: boolean });
    },
    async deleteUser(hospitalId, userId) {
      await doc.send(new DeleteCommand({ TableName: table.tableName, Key: keys.user(hospitalId, userId) }));
    },
  };
}
