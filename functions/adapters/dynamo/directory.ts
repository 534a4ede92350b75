import {
  COMPLIANCE_COUNTER_NAMES,
  OVERSIGHT_COUNTER_NAMES,
  PIPELINE_COUNTER_NAMES,
} from '#shared/domain/dashboards/counters.ts';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { DepartmentRecord, Directory, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { requireResource, serverEnv } from '#functions/lib/env.ts';
import { ENV } from '#shared/definitions/env.ts';
import { createDocumentClient, type Table } from './client.ts';
import { batchPut } from './expressions.ts';
import {
  hospitalIndexAttributes,
  hospitalSearchItems,
  teamIndexAttributes,
  userIndexAttributes,
  userSearchItems,
} from './organisation.ts';

/** Counters and states a re-put (the seed) keeps from the stored item: they change through their own paths. */
const KEPT = {
  hospital: [
    'userCount',
    'teamCount',
    'departmentCount',
    'datasetCount',
    'storageUsedBytes',
    'pendingInvitationCount',
    ...PIPELINE_COUNTER_NAMES,
    ...COMPLIANCE_COUNTER_NAMES,
    ...OVERSIGHT_COUNTER_NAMES,
    'status',
    'deactivatedAt',
  ],
  department: ['teamCount', 'memberCount'],
  team: [
    'memberCount',
    'datasetCount',
    'storageUsedBytes',
    'pendingInvitationCount',
    ...PIPELINE_COUNTER_NAMES,
    'isActive',
  ],
} as const;

const kept = (existing: Record<string, unknown> | undefined, names: readonly string[]) =>
  Object.fromEntries(names.filter((n) => existing?.[n] !== undefined).map((n) => [n, existing![n]]));

const present = (record: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

/**
 * Hospitals, departments, teams and users: items in the hospital's partition with the organisation's index attributes
 * (docs/domain.md#indexes); users also findable by e-mail (gsi3) and by search tokens.
 */
export function createDirectory(table: Table): Directory {
  const { doc } = table;
  const getItem = async <T>(Key: Record<string, string>): Promise<T | undefined> => {
    const { Item } = await doc.send(new GetCommand({ TableName: table.tableName, Key }));
    return Item ? (withoutKeys(Item) as T) : undefined;
  };
  return {
    getUser: (hospitalId, userId) => getItem<UserRecord>(keys.user(hospitalId, userId)),
    getHospital: (hospitalId) => getItem<HospitalRecord>(keys.hospital(hospitalId)),
    getTeam: (hospitalId, teamId) => getItem<TeamRecord>(keys.team(hospitalId, teamId)),
    async putHospital(hospital) {
      const existing = await getItem<Record<string, unknown>>(keys.hospital(hospital.id));
      const item = { ...hospital, ...kept(existing, KEPT.hospital) } as HospitalRecord;
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...keys.hospital(item.id), ...present(hospitalIndexAttributes(item)), entity: 'hospital', ...item },
        }),
      );
      await batchPut(table, hospitalSearchItems(item));
    },
    async putDepartment(department) {
      const Key = keys.department(department.hospitalId, department.id);
      const existing = await getItem<Record<string, unknown>>(Key);
      const item = { ...department, ...kept(existing, KEPT.department) } as DepartmentRecord;
      await doc.send(new PutCommand({ TableName: table.tableName, Item: { ...Key, entity: 'department', ...item } }));
    },
    async putTeam(team) {
      const Key = keys.team(team.hospitalId, team.id);
      const existing = await getItem<Record<string, unknown>>(Key);
      const item = { ...team, ...kept(existing, KEPT.team) } as TeamRecord;
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...Key, ...present(teamIndexAttributes(item)), entity: 'team', ...item },
        }),
      );
    },
    async putUser(user) {
      const existing = await getItem<UserRecord>(keys.user(user.hospitalId, user.id));
      const item: UserRecord = {
        ...user,
        createdAt: existing?.createdAt ?? user.createdAt,
        ...(existing?.lastLogin ? { lastLogin: existing.lastLogin } : {}),
        ...(existing?.twoFactorSince ? { twoFactorSince: existing.twoFactorSince } : {}),
      };
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.user(user.hospitalId, user.id),
            ...keys.userByEmail(user.email),
            ...present(userIndexAttributes(item)),
            entity: 'user',
            ...item,
          },
        }),
      );
      await batchPut(table, userSearchItems(item));
    },
    async recordLogin(hospitalId, userId, at) {
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.user(hospitalId, userId),
          UpdateExpression: 'SET lastLogin = :at',
          ConditionExpression: 'attribute_exists(email)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    },
  };
}

/** A directory on the table the environment names (functions that need nothing else, e.g. the token trigger). */
export function createAwsDirectory(): Directory {
  const env = serverEnv();
  return createDirectory({
    doc: createDocumentClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT }),
    tableName: requireResource(env, ENV.TABLE_NAME),
  });
}
