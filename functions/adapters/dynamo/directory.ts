import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hospitalPk, keys, withoutKeys } from '#shared/db/keys.ts';
import type { Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import type { Table } from './client.ts';
import { queryAll } from './expressions.ts';

/** Hospitals, departments, teams and users: items in the hospital's partition; users also findable by e-mail (gsi3). */
export function createDirectory(table: Table): Directory {
  const { doc, tableName: TableName } = table;
  const getItem = async <T>(Key: Record<string, string>): Promise<T | undefined> => {
    const { Item } = await doc.send(new GetCommand({ TableName, Key }));
    return Item ? (withoutKeys(Item) as T) : undefined;
  };
  return {
    getUser: (hospitalId, userId) => getItem<UserRecord>(keys.user(hospitalId, userId)),
    getHospital: (hospitalId) => getItem<HospitalRecord>(keys.hospital(hospitalId)),
    getTeam: (hospitalId, teamId) => getItem<TeamRecord>(keys.team(hospitalId, teamId)),
    async listUsers(hospitalId) {
      const items = await queryAll(table, hospitalPk(hospitalId), keys.userPrefix);
      return items.map((item) => withoutKeys(item) as UserRecord);
    },
    async putHospital(hospital) {
      await doc.send(
        new PutCommand({ TableName, Item: { ...keys.hospital(hospital.id), entity: 'hospital', ...hospital } }),
      );
    },
    async putDepartment(department) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.department(department.hospitalId, department.id), entity: 'department', ...department },
        }),
      );
    },
    async putTeam(team) {
      await doc.send(
        new PutCommand({ TableName, Item: { ...keys.team(team.hospitalId, team.id), entity: 'team', ...team } }),
      );
    },
    async putUser(user) {
      const existing = await getItem<UserRecord>(keys.user(user.hospitalId, user.id));
      const item = {
        ...user,
        createdAt: existing?.createdAt ?? user.createdAt,
        ...(existing?.lastLogin ? { lastLogin: existing.lastLogin } : {}),
      };
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...keys.user(user.hospitalId, user.id), ...keys.userByEmail(user.email), entity: 'user', ...item },
        }),
      );
    },
    async recordLogin(hospitalId, userId, at) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: keys.user(hospitalId, userId),
          UpdateExpression: 'SET lastLogin = :at',
          ConditionExpression: 'attribute_exists(email)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    },
  };
}
