import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetListIndexes, KEY_ATTRIBUTE_NAMES, keys, organisationIndexes } from '#shared/definitions/table/keys.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { GLOBAL_INDEXES, TABLE_KEYS } from '#shared/definitions/table/table.ts';

const TABLE_ATTRIBUTES = new Set<string>([
  TABLE_KEYS.primary.pk,
  TABLE_KEYS.primary.sk,
  ...GLOBAL_INDEXES.flatMap((i) => [i.pk, i.sk]),
]);
const INDEX_NAMES = new Set<string>(GLOBAL_INDEXES.map((i) => i.index));

const sample = { hospitalId: 'h1', id: 'd1', createdAt: '2026-01-01T00:00:00.000Z', status: 'CREATED', teamId: 't1' };
const ALL_KEYS: Record<string, Record<string, string>> = {
  hospital: keys.hospital('h1'),
  department: keys.department('h1', 'dep'),
  team: keys.team('h1', 't1'),
  user: keys.user('h1', 'u1'),
  userByEmail: keys.userByEmail('A@B.c'),
  dataset: keys.dataset('h1', 'd1'),
  datasetIndexes: keys.datasetIndexes(sample),
  series: keys.series('h1', 'd1', 's1'),
  asset: keys.asset('h1', 'd1', 'a1'),
  uploadSession: keys.uploadSession('h1', 'sess'),
  userIndexes: keys.userIndexes({
    hospitalId: 'h1',
    id: 'u1',
    firstName: 'A',
    lastName: 'B',
    role: 'GUEST',
    departmentId: 'dep',
    teamId: 't1',
  }),
  userSearch: keys.userSearch('h1', 'a b', 'u1'),
  teamIndexes: keys.teamIndexes({ hospitalId: 'h1', id: 't1', name: 'T', departmentId: 'dep', isActive: true }),
  hospitalIndexes: keys.hospitalIndexes({ id: 'h1', name: 'H', status: 'ACTIVE', subscriptionPlan: 'PRO' }),
  auditEvent: keys.auditEvent('h1', {
    seq: 1,
    datasetId: 'd1',
    at: '2026-01-01T00:00:00.000Z',
    id: 'e1',
    actorUserId: 'u1',
  }),
  auditHead: keys.auditHead('h1'),
};

describe('key design', () => {
  it.each(Object.entries(ALL_KEYS))('%s writes only attributes TABLE_KEYS defines', (_name, key) => {
    for (const attribute of Object.keys(key)) expect(TABLE_ATTRIBUTES.has(attribute), attribute).toBe(true);
  });

  it('starts every base-table partition key with the hospital', () => {
    for (const [name, key] of Object.entries(ALL_KEYS)) {
      const pk = key[TABLE_KEYS.primary.pk];
      if (pk !== undefined) expect(pk, name).toMatch(/^H#h1(#|$)/);
    }
  });

  it('lists datasets only through indexes the table defines', () => {
    for (const index of [
      datasetListIndexes.byHospitalRecent('h1'),
      datasetListIndexes.byStatus('h1', 'FAILED'),
      datasetListIndexes.byTeamRecent('h1', 't1'),
    ]) {
      expect(INDEX_NAMES.has(index.index)).toBe(true);
      expect(TABLE_ATTRIBUTES.has(index.pkName) && TABLE_ATTRIBUTES.has(index.skName)).toBe(true);
      expect(index.pk.startsWith('H#h1#')).toBe(true);
    }
  });

  it('lists the organisation only through indexes the table defines, inside the hospital (or the system tenant)', () => {
    for (const index of [
      organisationIndexes.usersByName('h1'),
      organisationIndexes.usersByRole('h1', 'GUEST'),
      organisationIndexes.usersByDepartment('h1', 'dep'),
      organisationIndexes.usersByTeam('h1', 't1'),
      organisationIndexes.teams('h1'),
      organisationIndexes.activeTeams('h1'),
      organisationIndexes.teamsByDepartment('h1', 'dep'),
      organisationIndexes.activeTeamsByDepartment('h1', 'dep'),
    ]) {
      expect(INDEX_NAMES.has(index.index)).toBe(true);
      expect(TABLE_ATTRIBUTES.has(index.pkName) && TABLE_ATTRIBUTES.has(index.skName)).toBe(true);
      expect(index.pk.startsWith('H#h1#')).toBe(true);
    }
    for (const index of [organisationIndexes.hospitals(), organisationIndexes.hospitalsByPlan('PRO')])
      expect(index.pk.startsWith('H#system#')).toBe(true);
    // An archived team leaves the active partitions; a user without a team leaves the team partition.
    expect(
      keys.teamIndexes({ hospitalId: 'h1', id: 't1', name: 'T', departmentId: 'd', isActive: false }),
    ).not.toHaveProperty(TABLE_KEYS.gsi5.pk);
    expect(
      keys.userIndexes({ hospitalId: 'h1', id: 'u', firstName: 'A', lastName: 'B', role: 'GUEST', teamId: null }),
    ).not.toHaveProperty(TABLE_KEYS.gsi7.pk);
  });

  it('orders dataset index sort keys by creation time', () => {
    const older = keys.datasetIndexes({ ...sample, createdAt: '2025-12-31T23:59:59.000Z', id: 'zzz' })[
      TABLE_KEYS.gsi1.sk
    ]!;
    const newer = keys.datasetIndexes(sample)[TABLE_KEYS.gsi1.sk]!;
    expect(older < newer).toBe(true);
  });

  it('keeps the key attribute list, CreateTable input and TABLE_KEYS in step', () => {
    expect(new Set(KEY_ATTRIBUTE_NAMES)).toEqual(TABLE_ATTRIBUTES);
    const input = createTableInput('t');
    expect(new Set(input.AttributeDefinitions.map((a) => a.AttributeName))).toEqual(TABLE_ATTRIBUTES);
    expect(new Set(input.GlobalSecondaryIndexes.map((i) => i.IndexName))).toEqual(INDEX_NAMES);
  });

  it('never spells a physical key attribute or index name in functions/ outside the table definition', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          if (/['"`](pk|sk|gsi[123](pk|sk)?)['"`]/.test(text)) offenders.push(path);
        }
      }
    };
    walk(join(process.cwd(), 'functions'));
    walk(join(process.cwd(), 'shared/domain'));
    expect(offenders).toEqual([]);
  });
});
