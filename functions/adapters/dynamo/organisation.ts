import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import {
  COMPLIANCE_COUNTER_NAMES,
  complianceDeltas,
  OVERSIGHT_COUNTER_NAMES,
  patientShareCounter,
  pipelineCounter,
  userCounterDeltas,
} from '#shared/domain/dashboards/counters.ts';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { recountReportItems } from '#shared/domain/reports/counters.ts';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  hospitalPk,
  hospitalSearchTokens,
  keys,
  organisationIndexes,
  userSearchTokens,
  withoutKeys,
  type IndexPartition,
  type ItemKey,
} from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import type { DepartmentRecord, HospitalRecord, TeamRecord, UserRecord } from '#shared/domain/auth/ports.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type {
  HospitalSummaryCounters,
  OrganisationStore,
  ReportCountItem,
  StorePage,
} from '#shared/domain/organisation/ports.ts';
import { SUBSCRIPTION_PLANS, type SubscriptionPlan } from '#shared/schemas/api/organisation.ts';
import type { Table } from './client.ts';
import { reindexInvitations, zeroInvitationCounters } from './invitations-repository.ts';
import {
  batchDelete,
  batchPut,
  countAll,
  isConditionFailure,
  mapWriteError,
  queryAll,
  queryPartitionAll,
  updateExpression,
  writeIfCondition,
} from './expressions.ts';

const P = TABLE_KEYS.primary;
/** A team without maxMembers takes the form's default (TeamInputSchema). */
const DEFAULT_MAX_MEMBERS = 15;
const INDEX_ATTRIBUTES = [TABLE_KEYS.gsi4, TABLE_KEYS.gsi5, TABLE_KEYS.gsi6, TABLE_KEYS.gsi7].flatMap((g) => [
  g.pk,
  g.sk,
]);

/** Index attributes of a user item, with the ones it no longer has set to undefined (REMOVEd by an update). */
export function userIndexAttributes(user: UserRecord): Record<string, string | undefined> {
  return withAbsent(keys.userIndexes({ ...user, departmentId: user.departmentId ?? null }));
}

export function teamIndexAttributes(team: TeamRecord): Record<string, string | undefined> {
  return withAbsent(keys.teamIndexes({ ...team, isActive: team.isActive !== false }));
}

/** The system tenant has no plan and is not listed among hospitals. */
export function hospitalIndexAttributes(hospital: HospitalRecord): Record<string, string | undefined> {
  if (!hospital.subscriptionPlan) return withAbsent({});
  return withAbsent(
    keys.hospitalIndexes({
      id: hospital.id,
      name: hospital.name,
      status: hospital.status ?? 'ACTIVE',
      subscriptionPlan: hospital.subscriptionPlan,
    }),
  );
}

function withAbsent(present: ItemKey): Record<string, string | undefined> {
  return Object.fromEntries(INDEX_ATTRIBUTES.map((name) => [name, present[name]]));
}

const defined = (record: Record<string, string | undefined>): ItemKey =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as ItemKey;

/** The small search-token items of a user (docs/domain.md#search); stale ones are checked against the user item on read. */
export function userSearchItems(user: UserRecord): Record<string, unknown>[] {
  return userSearchTokens(user).map((token) => ({
    ...keys.userSearch(user.hospitalId, token, user.id),
    entity: 'userSearch',
    userId: user.id,
  }));
}

export function hospitalSearchItems(hospital: HospitalRecord): Record<string, unknown>[] {
  if (!hospital.subscriptionPlan) return [];
  return hospitalSearchTokens(hospital).map((token) => ({
    ...keys.hospitalSearch(token, hospital.id),
    entity: 'hospitalSearch',
    hospitalId: hospital.id,
  }));
}

const startsWithAny = (tokens: string[], prefix: string) => tokens.some((t) => t.startsWith(prefix));

const summaryAttribute = (plan: SubscriptionPlan, what: 'hospitals' | 'users') => `active_${what}_${plan}`;

export function createOrganisationStore(table: Table): OrganisationStore {
  const { doc } = table;

  async function getItem<T>(Key: ItemKey): Promise<T | undefined> {
    const { Item } = await doc.send(new GetCommand({ TableName: table.tableName, Key }));
    return Item ? (withoutKeys(Item) as T) : undefined;
  }

  async function queryPage<T>(
    partition: IndexPartition,
    limit: number,
    startKey: Record<string, string> | undefined,
    filters: Record<string, string | undefined> = {},
  ): Promise<StorePage<T>> {
    const names: Record<string, string> = { '#pk': partition.pkName };
    const values: Record<string, unknown> = { ':pk': partition.pk };
    const conditions: string[] = [];
    Object.entries(filters).forEach(([name, value], i) => {
      if (value === undefined) return;
      names[`#q${i}`] = name;
      values[`:q${i}`] = value;
      conditions.push(`#q${i} = :q${i}`);
    });
    const page = await doc.send(
      new QueryCommand({
        TableName: table.tableName,
        IndexName: partition.index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    return {
      items: (page.Items ?? []).map((item) => withoutKeys(item) as T),
      ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
    };
  }

  /** One page of search-token items, then the records they name (one BatchGet), in token order, deduplicated. */
  async function searchPage<T>(
    pk: string,
    prefix: string,
    limit: number,
    startKey: Record<string, string> | undefined,
    idAttribute: string,
    keyOf: (id: string) => ItemKey,
  ): Promise<StorePage<T>> {
    const page = await doc.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    const ids = [...new Set((page.Items ?? []).map((item) => String(item[idAttribute])))];
    const found = await batchGet(ids.map(keyOf));
    const byId = new Map(found.map((item) => [String(item.id), item]));
    return {
      items: ids.flatMap((id) => (byId.has(id) ? [withoutKeys(byId.get(id)!) as T] : [])),
      ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey as Record<string, string> } : {}),
    };
  }

  async function batchGet(keyList: ItemKey[]): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < keyList.length; i += 100) {
      let request: Record<string, { Keys: ItemKey[] }> | undefined = {
        [table.tableName]: { Keys: keyList.slice(i, i + 100) },
      };
      for (let attempt = 0; request && Object.keys(request).length > 0 && attempt < 8; attempt++) {
        const result = await doc.send(new BatchGetCommand({ RequestItems: request }));
        items.push(...((result.Responses?.[table.tableName] ?? []) as Record<string, unknown>[]));
        request = result.UnprocessedKeys as typeof request;
      }
    }
    return items;
  }

  /** SET the fields and the index attributes they imply (REMOVE the ones that no longer apply), on an existing item. */
  async function update<T extends object>(
    Key: ItemKey,
    current: T | undefined,
    fields: Partial<T>,
    indexes: (merged: T) => Record<string, string | undefined>,
    notFound: () => Error,
  ): Promise<T> {
    if (!current) throw notFound();
    const merged = { ...current, ...fields } as T;
    const expression = updateExpression({ ...fields, ...indexes(merged) });
    try {
      const { Attributes } = await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key,
          ...expression,
          ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#key': P.pk },
          ...(Object.keys(expression.ExpressionAttributeValues).length ? {} : { ExpressionAttributeValues: undefined }),
          ConditionExpression: 'attribute_exists(#key)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return withoutKeys(Attributes ?? {}) as T;
    } catch (error) {
      if (isConditionFailure(error)) throw notFound();
      return mapWriteError(error);
    }
  }

  /** A put that refuses to replace an existing item (ConflictError). */
  async function putNew(Item: Record<string, unknown>): Promise<void> {
    try {
      await doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item,
          ConditionExpression: 'attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': P.pk },
        }),
      );
    } catch (error) {
      mapWriteError(error);
    }
  }

  async function add(Key: ItemKey, deltas: Record<string, number | undefined>): Promise<void> {
    const entries = Object.entries(deltas).filter(([, v]) => v !== undefined && v !== 0) as [string, number][];
    if (entries.length === 0) return;
    try {
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key,
          UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#key': P.pk,
            ...Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
          },
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:c${i}`, value])),
          ConditionExpression: 'attribute_exists(#key)',
        }),
      );
    } catch (error) {
      // The item is gone (e.g. a dataset of a team that no longer exists): nothing to count on.
      if (isConditionFailure(error)) return;
      mapWriteError(error);
    }
  }

  return {
    async add(hospitalId, target, deltas) {
      const Key =
        target.kind === 'hospital'
          ? keys.hospital(hospitalId)
          : target.kind === 'department'
            ? keys.department(hospitalId, target.departmentId)
            : keys.team(hospitalId, target.teamId);
      await add(Key, deltas);
    },
    async addSummary(deltas) {
      const values: Record<string, number | undefined> = {
        hospitals: deltas.hospitals,
        users: deltas.users,
        patients: deltas.patients,
        storageUsedBytes: deltas.storageUsedBytes,
      };
      if (deltas.plan) {
        values[summaryAttribute(deltas.plan.plan, 'hospitals')] = deltas.plan.hospitals;
        values[summaryAttribute(deltas.plan.plan, 'users')] = deltas.plan.users;
      }
      const entries = Object.entries(values).filter(([, v]) => v !== undefined && v !== 0) as [string, number][];
      if (entries.length === 0) return;
      // ADD creates the summary item on first use.
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.hospitalSummary(),
          UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:c${i}`, value])),
        }),
      );
    },

    async listHospitals(q) {
      if (q.search) {
        const page = await searchPage<HospitalRecord>(
          keys.hospitalSearchPartition,
          q.search,
          q.limit,
          q.startKey,
          'hospitalId',
          keys.hospital,
        );
        return {
          ...page,
          items: page.items.filter(
            (h) =>
              startsWithAny(hospitalSearchTokens(h), q.search!) &&
              (!q.plan || h.subscriptionPlan === q.plan) &&
              (!q.status || (h.status ?? 'ACTIVE') === q.status),
          ),
        };
      }
      if (q.status)
        return queryPage(organisationIndexes.hospitalsByStatus(q.status), q.limit, q.startKey, {
          subscriptionPlan: q.plan,
        });
      if (q.plan) return queryPage(organisationIndexes.hospitalsByPlan(q.plan), q.limit, q.startKey);
      return queryPage(organisationIndexes.hospitals(), q.limit, q.startKey);
    },
    async hospitalSummary() {
      const item = (await getItem<Record<string, number>>(keys.hospitalSummary())) ?? {};
      const summary: HospitalSummaryCounters = {
        hospitals: Number(item.hospitals ?? 0),
        users: Number(item.users ?? 0),
        patients: Number(item.patients ?? 0),
        storageUsedBytes: Number(item.storageUsedBytes ?? 0),
        activeHospitalsByPlan: {},
        activeUsersByPlan: {},
      };
      for (const plan of SUBSCRIPTION_PLANS) {
        summary.activeHospitalsByPlan[plan] = Number(item[summaryAttribute(plan, 'hospitals')] ?? 0);
        summary.activeUsersByPlan[plan] = Number(item[summaryAttribute(plan, 'users')] ?? 0);
      }
      return summary;
    },
    async createHospital(hospital) {
      // The slug is claimed first (a conditional put), so two hospitals never share one.
      await putNew({ ...keys.hospitalSlug(hospital.slug), entity: 'hospitalSlug', hospitalId: hospital.id });
      await putNew({
        ...keys.hospital(hospital.id),
        ...defined(hospitalIndexAttributes(hospital)),
        entity: 'hospital',
        ...hospital,
      });
      await batchPut(table, hospitalSearchItems(hospital));
    },
    async updateHospital(hospitalId, fields) {
      const current = await getItem<HospitalRecord>(keys.hospital(hospitalId));
      const updated = await update(keys.hospital(hospitalId), current, fields, hospitalIndexAttributes, () => {
        return new NotFoundError('HOSPITAL_NOT_FOUND');
      });
      if (fields.name !== undefined || fields.city !== undefined) await batchPut(table, hospitalSearchItems(updated));
      return updated;
    },

    async lockAdminChanges(hospitalId, now, until) {
      return writeIfCondition(() =>
        doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.hospital(hospitalId),
            UpdateExpression: 'SET adminChangeLock = :until',
            ConditionExpression:
              'attribute_exists(#key) AND (attribute_not_exists(adminChangeLock) OR adminChangeLock < :now)',
            ExpressionAttributeNames: { '#key': P.pk },
            ExpressionAttributeValues: { ':until': until, ':now': now },
          }),
        ),
      );
    },
    async unlockAdminChanges(hospitalId) {
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.hospital(hospitalId),
          UpdateExpression: 'REMOVE adminChangeLock',
        }),
      );
    },
    async listDepartments(hospitalId) {
      const items = await queryAll(table, `H#${hospitalId}`, 'DEPT#');
      return items.map((item) => withoutKeys(item) as DepartmentRecord).sort((a, b) => a.name.localeCompare(b.name));
    },
    getDepartment: (hospitalId, departmentId) => getItem<DepartmentRecord>(keys.department(hospitalId, departmentId)),
    async createDepartment(department) {
      await putNew({ ...keys.department(department.hospitalId, department.id), entity: 'department', ...department });
    },
    async updateDepartment(hospitalId, departmentId, fields) {
      const Key = keys.department(hospitalId, departmentId);
      return update(
        Key,
        await getItem<DepartmentRecord>(Key),
        fields,
        () => ({}),
        () => new NotFoundError(),
      );
    },
    async deleteDepartment(hospitalId, departmentId) {
      try {
        await doc.send(
          new DeleteCommand({
            TableName: table.tableName,
            Key: keys.department(hospitalId, departmentId),
            ConditionExpression:
              'attribute_exists(#key) AND (attribute_not_exists(teamCount) OR teamCount = :zero) AND ' +
              '(attribute_not_exists(memberCount) OR memberCount = :zero)',
            ExpressionAttributeNames: { '#key': P.pk },
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) throw new ConflictError();
        mapWriteError(error);
      }
    },

    async listTeams(q) {
      const partition = q.departmentId
        ? q.includeArchived
          ? organisationIndexes.teamsByDepartment(q.hospitalId, q.departmentId)
          : organisationIndexes.activeTeamsByDepartment(q.hospitalId, q.departmentId)
        : q.includeArchived
          ? organisationIndexes.teams(q.hospitalId)
          : organisationIndexes.activeTeams(q.hospitalId);
      return queryPage<TeamRecord>(partition, q.limit, q.startKey);
    },
    async createTeam(team) {
      await putNew({
        ...keys.team(team.hospitalId, team.id),
        ...defined(teamIndexAttributes(team)),
        entity: 'team',
        ...team,
      });
    },
    async updateTeam(hospitalId, teamId, fields) {
      const Key = keys.team(hospitalId, teamId);
      return update(Key, await getItem<TeamRecord>(Key), fields, teamIndexAttributes, () => new NotFoundError());
    },
    async addUsage(hospitalId, scope, day, deltas) {
      const entries = Object.entries(deltas).filter(([, v]) => v !== undefined && v !== 0) as [string, number][];
      if (entries.length === 0) return;
      // ADD creates the day's item on first use.
      await doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.usageDay(hospitalId, scope, day),
          UpdateExpression: `SET entity = :entity, #day = :day ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#day': 'day',
            ...Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
          },
          ExpressionAttributeValues: {
            ':entity': 'usageDay',
            ':day': day,
            ...Object.fromEntries(entries.map(([, value], i) => [`:c${i}`, value])),
          },
        }),
      );
    },
    async addReportCounts(hospitalId, target, deltas, names = {}) {
      const counts = Object.entries(deltas).filter(([, v]) => v !== 0);
      if (counts.length === 0) return;
      // ADD creates the item on first use; a count is `n:<name>`, a name `s:<name>` (docs/domain.md#report-counters).
      // A write moves a few counts; a bulk one is sent in parts, as an update expression holds at most 4 KB.
      for (let part = 0; part < counts.length; part += REPORT_COUNTS_PER_UPDATE) {
        const some = counts.slice(part, part + REPORT_COUNTS_PER_UPDATE);
        const named = part === 0 ? Object.entries(names) : [];
        await doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.reportCounts(hospitalId, target.scope, target.period),
            UpdateExpression:
              `SET entity = :entity, #scope = :scope, #period = :period` +
              named.map((_, i) => `, #s${i} = :s${i}`).join('') +
              ` ADD ${some.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
            ExpressionAttributeNames: {
              '#scope': 'scope',
              '#period': 'period',
              ...Object.fromEntries(some.map(([name], i) => [`#c${i}`, `${REPORT_COUNT}${name}`])),
              ...Object.fromEntries(named.map(([name], i) => [`#s${i}`, `${REPORT_NAME}${name}`])),
            },
            ExpressionAttributeValues: {
              ':entity': 'reportCounts',
              ':scope': target.scope,
              ':period': target.period,
              ...Object.fromEntries(some.map(([, value], i) => [`:c${i}`, value])),
              ...Object.fromEntries(named.map(([, value], i) => [`:s${i}`, value])),
            },
          }),
        );
      }
    },
    async putReportCounts(hospitalId, item) {
      await doc.send(new PutCommand({ TableName: table.tableName, Item: reportCountsItem(hospitalId, item) }));
    },
    async deleteReportCounts(hospitalId, target) {
      await doc.send(
        new DeleteCommand({
          TableName: table.tableName,
          Key: keys.reportCounts(hospitalId, target.scope, target.period),
        }),
      );
    },
    async listReportCounts(hospitalId, scope, from, to) {
      const low = keys.reportCounts(hospitalId, scope, from);
      const high = keys.reportCounts(hospitalId, scope, to);
      const items: ReportCountItem[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
            ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
            ExpressionAttributeValues: { ':pk': low[P.pk], ':from': low[P.sk], ':to': high[P.sk] },
            ExclusiveStartKey,
          }),
        );
        items.push(...(page.Items ?? []).map(reportCountItemOf));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    },
    async listUsage(hospitalId, scope, fromDay, toDay) {
      const from = keys.usageDay(hospitalId, scope, fromDay);
      const to = keys.usageDay(hospitalId, scope, toDay);
      const { Items } = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#pk': P.pk, '#sk': P.sk },
          ExpressionAttributeValues: { ':pk': from[P.pk], ':from': from[P.sk], ':to': to[P.sk] },
        }),
      );
      return (Items ?? []).map((item) => ({
        day: String(item.day),
        runs: Number(item.runs ?? 0),
        computeSeconds: Number(item.computeSeconds ?? 0),
        gbSeconds: Number(item.gbSeconds ?? 0),
        signInAttempts: Number(item.signInAttempts ?? 0),
        signIns: Number(item.signIns ?? 0),
        storageBytesAdded: Number(item.storageBytesAdded ?? 0),
      }));
    },
    async markPatient(hospitalId, scope, patientAlias) {
      try {
        await doc.send(
          new PutCommand({
            TableName: table.tableName,
            Item: { ...keys.patientMarker(hospitalId, scope, patientAlias), entity: 'patientMarker' },
            ConditionExpression: 'attribute_not_exists(#key)',
            ExpressionAttributeNames: { '#key': P.pk },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        return mapWriteError(error);
      }
    },
    async claimTeamSeat(hospitalId, teamId) {
      return writeIfCondition(() =>
        doc.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: keys.team(hospitalId, teamId),
            UpdateExpression: 'ADD memberCount :one',
            ConditionExpression:
              'attribute_exists(#key) AND (attribute_not_exists(isActive) OR isActive = :true) AND ' +
              '(attribute_not_exists(memberCount) OR (attribute_exists(maxMembers) AND memberCount < maxMembers) OR ' +
              '(attribute_not_exists(maxMembers) AND memberCount < :defaultMax))',
            ExpressionAttributeNames: { '#key': P.pk },
            ExpressionAttributeValues: { ':one': 1, ':true': true, ':defaultMax': DEFAULT_MAX_MEMBERS },
          }),
        ),
      );
    },
    async countTeamMembers(hospitalId, teamId, status) {
      const partition = organisationIndexes.usersByTeam(hospitalId, teamId);
      return countAll(table, {
        IndexName: partition.index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': partition.pkName, ...(status ? { '#status': 'status' } : {}) },
        ExpressionAttributeValues: { ':pk': partition.pk, ...(status ? { ':status': status } : {}) },
        ...(status ? { FilterExpression: '#status = :status' } : {}),
      });
    },

    async listUsers(q) {
      if (q.search) {
        const page = await searchPage<UserRecord>(
          keys.userSearchPartition(q.hospitalId),
          q.search,
          q.limit,
          q.startKey,
          'userId',
          (id) => keys.user(q.hospitalId, id),
        );
        return {
          ...page,
          items: page.items.filter(
            (u) =>
              startsWithAny(userSearchTokens(u), q.search!) &&
              (!q.role || u.role === q.role) &&
              (!q.departmentId || u.departmentId === q.departmentId) &&
              (!q.teamId || u.teamId === q.teamId) &&
              (!q.status || u.status === q.status),
          ),
        };
      }
      // The most selective index for the filters given; the other filters apply to the items read (at most `limit`).
      if (q.teamId)
        return queryPage(organisationIndexes.usersByTeam(q.hospitalId, q.teamId), q.limit, q.startKey, {
          role: q.role,
          departmentId: q.departmentId,
          status: q.status,
        });
      if (q.departmentId)
        return queryPage(organisationIndexes.usersByDepartment(q.hospitalId, q.departmentId), q.limit, q.startKey, {
          role: q.role,
          status: q.status,
        });
      if (q.role)
        return queryPage(organisationIndexes.usersByRole(q.hospitalId, q.role), q.limit, q.startKey, {
          status: q.status,
        });
      return queryPage(organisationIndexes.usersByName(q.hospitalId), q.limit, q.startKey, { status: q.status });
    },
    async findUserByEmail(email) {
      const key = keys.userByEmail(email);
      const [[pkName, pk]] = Object.entries(key) as [[string, string]];
      const page = await doc.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: TABLE_KEYS.gsi3.index,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': pkName },
          ExpressionAttributeValues: { ':pk': pk },
          Limit: 1,
        }),
      );
      const item = page.Items?.[0];
      return item ? (withoutKeys(item) as UserRecord) : undefined;
    },
    async updateUser(hospitalId, userId, fields) {
      const Key = keys.user(hospitalId, userId);
      return update(
        Key,
        await getItem<UserRecord>(Key),
        { ...fields },
        userIndexAttributes,
        () => new NotFoundError('USER_NOT_FOUND'),
      );
    },
  };
}

/**
 * Sets a hospital's counters (and its departments' and teams') from what is stored: the seed calls it so that the
 * demo data's counters are right however often it runs. Reads whole partitions: not for request paths.
 */
const REPORT_COUNT = 'n:';
const REPORT_NAME = 's:';
const REPORT_COUNTS_PER_UPDATE = 100;

function reportCountItemOf(item: Record<string, unknown>): ReportCountItem {
  const counts: Record<string, number> = {};
  const names: Record<string, string> = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute.startsWith(REPORT_COUNT)) counts[attribute.slice(REPORT_COUNT.length)] = Number(value);
    else if (attribute.startsWith(REPORT_NAME)) names[attribute.slice(REPORT_NAME.length)] = String(value);
  }
  return { scope: String(item.scope), period: String(item.period), counts, names };
}

/** A report item as a recount leaves it: put whole, so a recount run twice writes the same. */
export function reportCountsItem(hospitalId: string, item: ReportCountItem): Record<string, unknown> {
  return {
    ...keys.reportCounts(hospitalId, item.scope, item.period),
    entity: 'reportCounts',
    scope: item.scope,
    period: item.period,
    ...Object.fromEntries(Object.entries(item.counts).map(([name, n]) => [`${REPORT_COUNT}${name}`, n])),
    ...Object.fromEntries(Object.entries(item.names).map(([name, v]) => [`${REPORT_NAME}${name}`, v])),
  };
}

export async function recountHospital(table: Table, hospitalId: string): Promise<void> {
  const store = createOrganisationStore(table);
  const all = (partition: IndexPartition) => queryPartitionAll(table, partition);
  const users = (await all(organisationIndexes.usersByName(hospitalId))) as unknown as UserRecord[];
  const teams = (await all(organisationIndexes.teams(hospitalId))) as unknown as TeamRecord[];
  const departments = await store.listDepartments(hospitalId);
  const datasets = (await all({
    index: TABLE_KEYS.gsi1.index,
    pkName: TABLE_KEYS.gsi1.pk,
    skName: TABLE_KEYS.gsi1.sk,
    pk: `H#${hospitalId}#DS`,
  })) as (DatasetRecord & { teamId?: string | null; storageCountedBytes?: number; status: DatasetStatus })[];
  // The compliance center's counters: each de-identified dataset with its series (one read of each).
  const compliance: Record<string, number> = Object.fromEntries(COMPLIANCE_COUNTER_NAMES.map((name) => [name, 0]));
  for (const d of datasets) {
    if (!d.deidentifiedAt) continue;
    const series = (await queryAll(table, `H#${hospitalId}`, keys.seriesPrefix(d.id))) as unknown as SeriesRecord[];
    for (const [name, delta] of Object.entries(complianceDeltas(d, series, 1))) compliance[name]! += delta ?? 0;
  }
  // The dashboards' counters (docs/domain.md#counters): per pipeline group, and distinct patients with their markers.
  const figures = (own: typeof datasets, scope: string) => {
    const counts: Record<string, number> = { queuedCount: 0, processingCount: 0, completedCount: 0, failedCount: 0 };
    for (const d of own) {
      const counter = pipelineCounter(d.status);
      if (counter) counts[counter]! += 1;
    }
    const aliases = [...new Set(own.map((d) => d.patientAlias).filter((a): a is string => Boolean(a)))];
    markers.push(
      ...aliases.map((alias) => ({ ...keys.patientMarker(hospitalId, scope, alias), entity: 'patientMarker' })),
    );
    return { ...counts, patientCount: aliases.length };
  };
  const markers: Record<string, unknown>[] = [];
  const set = async (Key: ItemKey, fields: Record<string, number>) => {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key,
        ...updateExpression(fields),
        ConditionExpression: 'attribute_exists(#key)',
        ExpressionAttributeNames: { ...updateExpression(fields).ExpressionAttributeNames, '#key': P.pk },
      }),
    );
  };
  const billed = users.filter((u) => u.status !== 'DISABLED');
  const invitations = await reindexInvitations(table, hospitalId);
  await set(keys.hospital(hospitalId), {
    ...invitations.hospital,
    ...(await recountOversight(table, hospitalId, users)),
    userCount: billed.length,
    teamCount: teams.filter((t) => t.isActive !== false).length,
    departmentCount: departments.length,
    datasetCount: datasets.length,
    storageUsedBytes: datasets.reduce((n, d) => n + Number(d.storageCountedBytes ?? 0), 0),
    ...figures(datasets, 'hospital'),
    ...compliance,
  });
  for (const d of departments)
    await set(keys.department(hospitalId, d.id), {
      teamCount: teams.filter((t) => t.departmentId === d.id && t.isActive !== false).length,
      memberCount: users.filter((u) => u.departmentId === d.id).length,
    });
  for (const t of teams) {
    const own = datasets.filter((d) => d.teamId === t.id);
    await set(keys.team(hospitalId, t.id), {
      memberCount: users.filter((u) => u.teamId === t.id).length,
      ...(invitations.teams.get(t.id) ?? zeroInvitationCounters()),
      datasetCount: own.length,
      storageUsedBytes: own.reduce((n, d) => n + Number(d.storageCountedBytes ?? 0), 0),
      ...figures(own, t.id),
    });
  }
  await batchPut(table, markers);
  await replaceReportCounts(table, hospitalId, recountReportItems(datasets));
}

/**
 * Replaces every report item of a hospital with a recount (docs/domain.md#report-counters): the new items are put
 * whole (SET, not ADD) and an item no live dataset counts any more is deleted, so running it again writes the same.
 */
export async function replaceReportCounts(table: Table, hospitalId: string, items: ReportCountItem[]): Promise<void> {
  const fresh = items.map((item) => reportCountsItem(hospitalId, item));
  const kept = new Set(fresh.map((item) => String(item[P.sk])));
  const stored = await queryAll(table, `H#${hospitalId}`, keys.reportCountsPrefix);
  await batchPut(table, fresh);
  await batchDelete(
    table,
    stored
      .filter((item) => !kept.has(String(item[P.sk])))
      .map((item) => ({ [P.pk]: String(item[P.pk]), [P.sk]: String(item[P.sk]) })),
  );
}

/**
 * The compliance center's counters of a hospital's people and links (docs/domain.md#counters): users by status and
 * ACTIVE users with two-factor, from the users read; patient shares by stored status, from one read of the hospital's
 * shares. An ACTIVE share written before the by-expiry index existed gets its index entry here (conditional on its
 * status and expiry, so a share that changed meanwhile is left to the path that changed it).
 */
async function recountOversight(
  table: Table,
  hospitalId: string,
  users: UserRecord[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(OVERSIGHT_COUNTER_NAMES.map((name) => [name, 0]));
  for (const user of users)
    for (const [name, delta] of Object.entries(userCounterDeltas(undefined, user))) counts[name]! += delta ?? 0;
  const shares = await queryAll(table, hospitalPk(hospitalId), keys.patientShareHospitalPrefix);
  for (const item of shares) {
    const share = item as unknown as PatientShareRecord;
    counts[patientShareCounter(share.status)]! += 1;
    if (share.status !== 'ACTIVE') continue;
    const entry = keys.activePatientShareByExpiry(share);
    if (Object.entries(entry).every(([name, value]) => item[name] === value)) continue;
    try {
      await table.doc.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: keys.patientShare(share.hospitalId, share.datasetId, share.id),
          ...updateExpression(entry),
          ConditionExpression: '#status = :active AND #expiresAt = :expiresAt',
          ExpressionAttributeNames: {
            ...updateExpression(entry).ExpressionAttributeNames,
            '#status': 'status',
            '#expiresAt': 'expiresAt',
          },
          ExpressionAttributeValues: {
            ...updateExpression(entry).ExpressionAttributeValues,
            ':active': 'ACTIVE',
            ':expiresAt': share.expiresAt,
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return counts;
}

/** Sets the summary item over every hospital from the hospital items (seed only: reads every hospital). */
export async function recountSummary(table: Table): Promise<void> {
  const partition = organisationIndexes.hospitals();
  const hospitals = (await queryPartitionAll(table, partition)) as unknown as HospitalRecord[];
  const item: Record<string, number> = {
    hospitals: hospitals.length,
    users: hospitals.reduce((n, h) => n + (h.userCount ?? 0), 0),
    patients: hospitals.reduce((n, h) => n + (h.patientCount ?? 0), 0),
    storageUsedBytes: hospitals.reduce((n, h) => n + (h.storageUsedBytes ?? 0), 0),
  };
  for (const plan of SUBSCRIPTION_PLANS) {
    const active = hospitals.filter((h) => h.subscriptionPlan === plan && (h.status ?? 'ACTIVE') === 'ACTIVE');
    item[summaryAttribute(plan, 'hospitals')] = active.length;
    item[summaryAttribute(plan, 'users')] = active.reduce((n, h) => n + (h.userCount ?? 0), 0);
  }
  await table.doc.send(
    new UpdateCommand({ TableName: table.tableName, Key: keys.hospitalSummary(), ...updateExpression(item) }),
  );
}
