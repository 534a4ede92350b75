import { DEFAULT_PERMISSIONS } from '#shared/vocabulary/roles.ts';
import { DEMO_HOSPITALS, DEMO_USERS, SYSTEM_HOSPITAL_ID, demoTeamLead, type DemoUser } from './demo-data.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { requireResource, serverEnv } from '#functions/lib/env.ts';
import { ENV } from '#shared/definitions/env.ts';
import { createDirectory } from '#functions/adapters/dynamo/directory.ts';
import { createDocumentClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/definitions/table/keys.ts';
import { recountHospital, recountSummary } from '#functions/adapters/dynamo/organisation.ts';

/**
 * The generation of counters this code keeps (docs/domain.md#counters). Raise it when a counter is added or its
 * meaning changes: the next start recounts once from what is stored; later starts trust the counters, which every
 * write keeps, so a start does not read every dataset.
 */
export const COUNTERS_VERSION = 7;

/**
 * Writes the demo tenants (hospitals, departments, teams, users with the role's default permissions), idempotently:
 * fixed ids for the organisation, the identity provider's sub for users. Called by the twin at start (stack.ts). On the
 * first start, and after an upgrade that changes the counters, the counters of the demo hospitals, their departments
 * and teams, and the summary over every hospital are set from what is stored (docs/domain.md#counters). Teams are written
 * after the users so a team's lead is its demo team lead's id (docs/local-twin.md#demo-data).
 */
export async function seedDemoTenants(deps: {
  ensureIdentity(user: DemoUser, password: string): Promise<string>;
  password: string;
  /** Users seeded after the demo users, the same way (the load bench, bench/load.ts). */
  extraUsers?: DemoUser[];
  /** The table to seed; from the environment when absent. */
  table?: Table;
  now?: string;
}): Promise<void> {
  const env = deps.table ? undefined : serverEnv();
  const table: Table = deps.table ?? {
    doc: createDocumentClient({ region: env!.AWS_REGION, endpoint: env!.DYNAMODB_ENDPOINT }),
    tableName: requireResource(env!, ENV.TABLE_NAME),
  };
  const directory: Directory = createDirectory(table);
  const now = deps.now ?? new Date().toISOString();
  await directory.putHospital({
    id: SYSTEM_HOSPITAL_ID,
    slug: 'system',
    name: 'Imaging Workspace',
    createdAt: now,
    updatedAt: now,
  });
  for (const h of DEMO_HOSPITALS) {
    // Teams are written after the users (below): their lead is a user's identity-provider id.
    const { departments, teams: _teams, ...hospital } = h;
    await directory.putHospital({ ...hospital, createdAt: now, updatedAt: now });
    for (const d of departments) await directory.putDepartment({ ...d, hospitalId: h.id, createdAt: now });
  }
  const subs = new Map<string, string>();
  for (const user of [...DEMO_USERS, ...(deps.extraUsers ?? [])]) {
    const sub = await deps.ensureIdentity(user, deps.password);
    subs.set(user.email, sub);
    await directory.putUser({
      id: sub,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      status: 'ACTIVE',
      hospitalId: user.hospitalId,
      teamId: user.teamId ?? null,
      departmentId: user.departmentId ?? null,
      ...(user.department ? { department: user.department } : {}),
      ...(user.specialization ? { specialization: user.specialization } : {}),
      permissions: [...DEFAULT_PERMISSIONS[user.role]],
      createdAt: now,
    });
  }
  for (const h of DEMO_HOSPITALS)
    for (const t of h.teams) {
      const lead = demoTeamLead(t.id);
      await directory.putTeam({
        ...t,
        hospitalId: h.id,
        leadUserId: lead ? (subs.get(lead.email) ?? null) : null,
        createdAt: now,
      });
    }
  const { Item: marker } = await table.doc.send(
    new GetCommand({ TableName: table.tableName, Key: keys.countersVersion() }),
  );
  if (Number(marker?.version ?? 0) >= COUNTERS_VERSION) return;
  for (const h of DEMO_HOSPITALS) await recountHospital(table, h.id);
  await recountSummary(table);
  await table.doc.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...keys.countersVersion(), entity: 'countersVersion', version: COUNTERS_VERSION },
    }),
  );
}
