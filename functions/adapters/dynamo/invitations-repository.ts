import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys, type IndexPartition } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { DepartmentRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, EmailTakenError } from '#shared/domain/errors.ts';
import type {
  InvitationDirectory,
  InvitationRecord,
  InvitationRepository,
  InvitationTally,
  AdminListFilter,
} from '#shared/domain/invitations/ports.ts';
import type { Table } from './client.ts';
import {
  countAll,
  isConditionFailure,
  mapWriteError,
  queryAll,
  updateExpression,
  writeIfCondition,
} from './expressions.ts';

const P = TABLE_KEYS.primary;
const G3 = TABLE_KEYS.gsi3;

/** The counters an invitation moves on its hospital's item and its team's (docs/domain.md#counters). */
export const INVITATION_COUNTER_NAMES = [
  'invitationCount',
  'pendingInvitationCount',
  'acceptedInvitationCount',
  'expiredInvitationCount',
] as const;
type InvitationCounter = (typeof INVITATION_COUNTER_NAMES)[number];

/** Every invitation counter at zero: a team with no invitation stored. */
export const zeroInvitationCounters = (): Record<InvitationCounter, number> => ({
  invitationCount: 0,
  pendingInvitationCount: 0,
  acceptedInvitationCount: 0,
  expiredInvitationCount: 0,
});

/** `<expiresAt>#<id>` sort keys at or before `now` sort below this bound ('$' follows '#'). */
const lapsedBound = (now: string) => `${now}$`;

/**
 * The list status of the Pending tab's filters as a FilterExpression (docs/domain.md#invitations): `listStatusOf` in
 * the table's terms, at `now`.
 */
function listStatusFilter(
  status: AdminListFilter,
  now: string,
): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const names = { '#st': 'status', '#exp': 'expiresAt', '#sent': 'sentAt' };
  const live = '#st = :pending AND #exp > :now';
  const expressions: Record<AdminListFilter, string> = {
    accepted: '#st = :accepted',
    expired: '#st = :expired OR (#st = :pending AND #exp <= :now)',
    pending: `${live} AND (attribute_not_exists(#sent) OR attribute_type(#sent, :null))`,
    sent: `${live} AND attribute_type(#sent, :string)`,
  };
  const values = {
    ':pending': 'PENDING',
    ':accepted': 'ACCEPTED',
    ':expired': 'EXPIRED',
    ':now': now,
    ':null': 'NULL',
    ':string': 'S',
  };
  const expression = expressions[status];
  // Only the names and values the expression uses: DynamoDB refuses unused ones.
  const used = <T>(entries: Record<string, T>) =>
    Object.fromEntries(Object.entries(entries).filter(([key]) => new RegExp(`${key}\\b`).test(expression)));
  return { expression, names: used(names), values: used(values) };
}

/** Index entries of a by-expiry partition before (`lapsed`) or after the bound, counted without reading the items. */
async function countByExpiry(table: Table, partition: IndexPartition, now: string, lapsed: boolean): Promise<number> {
  return countAll(table, {
    IndexName: partition.index,
    KeyConditionExpression: lapsed ? '#pk = :pk AND #sk < :bound' : '#pk = :pk AND #sk > :bound',
    ExpressionAttributeNames: { '#pk': partition.pkName, '#sk': partition.skName },
    ExpressionAttributeValues: { ':pk': partition.pk, ':bound': lapsedBound(now) },
  });
}

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

  const counterWrites = (invitation: InvitationRecord, deltas: Partial<Record<InvitationCounter, number>>): Write[] => {
    const names = Object.keys(deltas) as InvitationCounter[];
    const counter = (Key: Record<string, string>): Write => ({
      Update: {
        TableName: table.tableName,
        Key,
        UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(#pk)',
        ExpressionAttributeNames: { '#pk': P.pk, ...Object.fromEntries(names.map((n, i) => [`#c${i}`, n])) },
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:d${i}`, deltas[n]])),
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
    ...keys.invitationIndexes(invitation),
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
          ...counterWrites(invitation, { invitationCount: 1, pendingInvitationCount: 1 }),
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
    async listPage({ hospitalId, teamId, limit, startKey, status, now }) {
      const partition = keys.invitationsNewestFirst(hospitalId, teamId);
      const filter = status ? listStatusFilter(status, now) : undefined;
      const { Items, LastEvaluatedKey } = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: partition.index,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': partition.pkName, ...filter?.names },
          ExpressionAttributeValues: { ':pk': partition.pk, ...filter?.values },
          ...(filter ? { FilterExpression: filter.expression } : {}),
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: startKey,
        }),
      );
      return {
        items: (Items ?? []).map((i) => withoutKeys(i) as InvitationRecord),
        lastKey: LastEvaluatedKey as Record<string, string> | undefined,
      };
    },
    async tally(hospitalId, teamId, now): Promise<InvitationTally> {
      const { Item } = await doc.send(
        new GetCommand({
          TableName: table.tableName,
          Key: teamId ? keys.team(hospitalId, teamId) : keys.hospital(hospitalId),
          ProjectionExpression: INVITATION_COUNTER_NAMES.join(', '),
        }),
      );
      const counter = (name: InvitationCounter) => Math.max(0, Number(Item?.[name] ?? 0));
      const [lapsed, unsentLive] = await Promise.all([
        countByExpiry(table, keys.pendingInvitationsByExpiry(hospitalId, teamId), now, true),
        countByExpiry(table, keys.unsentInvitationsByExpiry(hospitalId, teamId), now, false),
      ]);
      return {
        all: counter('invitationCount'),
        storedPending: counter('pendingInvitationCount'),
        accepted: counter('acceptedInvitationCount'),
        storedExpired: counter('expiredInvitationCount'),
        lapsed,
        unsentLive,
      };
    },
    async updatePending(invitation, fields) {
      const { hospitalId, id: invitationId, teamId } = invitation;
      const indexFields = fields.tokenHash ? keys.invitationByTokenHash(fields.tokenHash) : {};
      // The by-expiry entries follow the new expiry; once an e-mail went out the unsent entries go.
      const expiry = fields.expiresAt ? `${fields.expiresAt}#${invitationId}` : undefined;
      const G = TABLE_KEYS;
      const expiryFields: Record<string, string | undefined> = {
        ...(expiry ? { [G.gsi4.sk]: expiry, ...(teamId ? { [G.gsi5.sk]: expiry } : {}) } : {}),
        ...(fields.sentAt ? Object.fromEntries(keys.invitationUnsentIndexNames.map((name) => [name, undefined])) : {}),
      };
      try {
        const { Attributes } = await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.invitation(hospitalId, invitationId),
            ...whilePending({ ...fields, ...indexFields, ...expiryFields }),
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
              // Out of PENDING: the by-expiry entries go (the lists' entries stay).
              ...whilePending({
                ...fields,
                status,
                ...Object.fromEntries(keys.invitationExpiryIndexNames.map((name) => [name, undefined])),
              }),
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
          ...counterWrites(invitation, {
            pendingInvitationCount: -1,
            ...(status === 'ACCEPTED' ? { acceptedInvitationCount: 1 } : {}),
            ...(status === 'EXPIRED' ? { expiredInvitationCount: 1 } : {}),
          }),
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

/**
 * Writes the index entries of every invitation of the hospital from its stored fields and answers the invitation
 * counters of the hospital and of each team, for the recount of invitations stored before them
 * (docs/domain.md#counters). Safe to repeat: each entry is set to what the invitation's fields give.
 */
export async function reindexInvitations(
  table: Table,
  hospitalId: string,
): Promise<{ hospital: Record<InvitationCounter, number>; teams: Map<string, Record<InvitationCounter, number>> }> {
  const items = (await queryAll(table, hospitalPk(hospitalId), keys.invitationPrefix)).filter(
    (i) => i.entity === 'invitation',
  );
  const zero = zeroInvitationCounters;
  const hospital = zero();
  const teams = new Map<string, Record<InvitationCounter, number>>();
  for (const item of items) {
    const invitation = withoutKeys(item) as InvitationRecord;
    const entries = keys.invitationIndexes(invitation);
    const fields = Object.fromEntries(keys.invitationIndexNames.map((name) => [name, entries[name]]));
    await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.invitation(hospitalId, invitation.id),
        ...updateExpression(fields),
      }),
    );
    const scopes = [hospital];
    if (invitation.teamId) {
      if (!teams.has(invitation.teamId)) teams.set(invitation.teamId, zero());
      scopes.push(teams.get(invitation.teamId)!);
    }
    for (const counts of scopes) {
      counts.invitationCount += 1;
      if (invitation.status === 'PENDING') counts.pendingInvitationCount += 1;
      if (invitation.status === 'ACCEPTED') counts.acceptedInvitationCount += 1;
      if (invitation.status === 'EXPIRED') counts.expiredInvitationCount += 1;
    }
  }
  return { hospital, teams };
}
