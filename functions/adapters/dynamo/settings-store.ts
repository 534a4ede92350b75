import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { SettingsStore, Stored } from '#shared/domain/settings/ports.ts';
import type { NotificationPreferences, Policy, TeamPolicyOverrides } from '#shared/schemas/api/policies.ts';
import type { Table } from './client.ts';
import { writeIfCondition } from './expressions.ts';

const P = TABLE_KEYS.primary;

/** Policies, user settings, notifications and the hospital figures the checks read: items of the one table. */
export function createSettingsStore(table: Table): SettingsStore {
  const { doc } = table;
  const get = async (Key: Record<string, string>) =>
    (await doc.send(new GetCommand({ TableName: table.tableName, Key, ConsistentRead: true }))).Item;
  const getStored = async <T>(Key: Record<string, string>): Promise<Stored<T> | undefined> => {
    const item = await get(Key);
    return item ? (withoutKeys(item) as Stored<T>) : undefined;
  };
  const put = async (Key: Record<string, string>, entity: string, fields: Record<string, unknown>) => {
    await doc.send(new PutCommand({ TableName: table.tableName, Item: { ...Key, entity, ...fields } }));
  };
  /** SET of the given attributes on an existing item (a missing item is refused, never created half-empty). */
  const setFields = async (Key: Record<string, string>, fields: Record<string, unknown>) => {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    await doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key,
        ConditionExpression: `attribute_exists(${P.pk})`,
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
      }),
    );
  };
  return {
    getSystemPolicy: () => getStored<Policy>(keys.systemPolicy()),
    putSystemPolicy: (policy) => put(keys.systemPolicy(), 'systemPolicy', policy),
    getHospitalPolicy: (hospitalId) => getStored<Policy>(keys.hospitalPolicy(hospitalId)),
    putHospitalPolicy: (hospitalId, policy) => put(keys.hospitalPolicy(hospitalId), 'hospitalPolicy', policy),
    getTeamPolicy: (hospitalId, teamId) => getStored<TeamPolicyOverrides>(keys.teamPolicy(hospitalId, teamId)),
    putTeamPolicy: (hospitalId, teamId, overrides) =>
      put(keys.teamPolicy(hospitalId, teamId), 'teamPolicy', { ...overrides, teamId }),

    async getHospitalProfile(hospitalId) {
      const item = await get(keys.hospital(hospitalId));
      if (!item) return undefined;
      const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
      return {
        name: text('name') ?? '',
        email: text('email'),
        phone: text('phone'),
        address: text('addressLine1'),
        billingContact: text('billingContact'),
      };
    },
    async updateHospitalProfile(hospitalId, profile, at) {
      await setFields(keys.hospital(hospitalId), {
        name: profile.name,
        email: profile.email,
        phone: profile.phone,
        addressLine1: profile.address,
        billingContact: profile.billingContact,
        updatedAt: at,
      });
    },
    async storageUsedBytes(hospitalId) {
      const item = await get(keys.hospital(hospitalId));
      const used = item?.storageUsedBytes;
      return typeof used === 'number' && Number.isFinite(used) && used > 0 ? used : 0;
    },
    claimMonthlyReport: (hospitalId, month, at) =>
      writeIfCondition(() =>
        doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: { ...keys.monthlyReportSent(hospitalId, month), entity: 'monthlyReportSent', month, sentAt: at },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': P.pk },
          }),
        ),
      ),
    async listHospitalIds() {
      const ids: string[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new ScanCommand({
            TableName: table.tableName,
            FilterExpression: '#sk = :hospital',
            ProjectionExpression: '#id',
            ExpressionAttributeNames: { '#sk': P.sk, '#id': 'id' },
            ExpressionAttributeValues: { ':hospital': 'HOSPITAL' },
            ExclusiveStartKey,
          }),
        );
        for (const item of page.Items ?? []) if (typeof item.id === 'string') ids.push(item.id);
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return ids.sort();
    },

    async getUserProfile(hospitalId, userId) {
      const item = await get(keys.user(hospitalId, userId));
      if (!item) return undefined;
      const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
      return {
        email: text('email') ?? '',
        firstName: text('firstName') ?? '',
        lastName: text('lastName') ?? '',
        phone: text('phone'),
        specialization: text('specialization'),
        avatarKey: text('avatarKey'),
      };
    },
    updateUserProfile: (hospitalId, userId, fields) => setFields(keys.user(hospitalId, userId), fields),
    async getNotificationPreferences(hospitalId, userId) {
      const item = await get(keys.notificationPreferences(hospitalId, userId));
      return item ? (withoutKeys(item) as NotificationPreferences) : undefined;
    },
    putNotificationPreferences: (hospitalId, userId, preferences) =>
      put(keys.notificationPreferences(hospitalId, userId), 'notificationPreferences', preferences),
  };
}
