/**
 * The hospital-scale bench (docs/capacity.md#what-was-measured-and-what-was-not): one hospital seeded straight into
 * the twin's DynamoDB stand-in (dynalite in memory, through the in-process harness of
 * tests/integration/datasets-harness.ts) with its datasets and their series, 5,000 users in 200 teams, an audit event
 * per dataset, invitations and 10,000 patient shares (tests/helpers/hospital-scale.ts builds the items with the
 * table's key functions), grown size by size. At each size every list, search, dashboard, report and audit route is
 * called as the role that uses it, through the real handlers, while a meter on every DynamoDB client (the adapters'
 * client hook) counts the read calls, the items DynamoDB evaluated for them (ScannedCount, so a filter's dropped items
 * count) and the read capacity it reports; and the answer's time.
 * Prints the routes side by side at each size, marks a route whose items read grew with the hospital, and exits 1
 * when one did (or a route failed).
 * Not a test. Run: npm run bench:hospital-scale [-- --sizes 1000,100000 --users 5000 --teams 200 --shares 10000
 * --invitations 1000 --out results.json]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startHarness, subOf } from '#tests/integration/datasets-harness.ts';
import {
  DEFAULT_SCALE_SHAPE,
  DEMO_TEAM,
  SCALE_HOSPITAL,
  scaleDatasetId,
  scaleTeamId,
  seedAuditEvents,
  seedDatasets,
  seedOrganisation,
  seedPatientShares,
  type ScaleShape,
} from '#tests/helpers/hospital-scale.ts';
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { createReadMeter, type ReadCount } from '#tests/helpers/read-meter.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000' },
    users: { type: 'string', default: String(DEFAULT_SCALE_SHAPE.users) },
    teams: { type: 'string', default: String(DEFAULT_SCALE_SHAPE.teams) },
    shares: { type: 'string', default: String(DEFAULT_SCALE_SHAPE.patientShares) },
    series: { type: 'string', default: String(DEFAULT_SCALE_SHAPE.seriesPerDataset) },
    invitations: { type: 'string', default: '5000' },
    repeat: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
const sizes = values.sizes
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const shape: ScaleShape = {
  ...DEFAULT_SCALE_SHAPE,
  users: Number(values.users),
  teams: Number(values.teams),
  patientShares: Math.min(Number(values.shares), (sizes[0] ?? 0) * 10),
  seriesPerDataset: Number(values.series),
  invitations: Number(values.invitations),
};
const repeat = Math.max(1, Number(values.repeat));
const say = (line = '') => process.stdout.write(`${line}\n`);

const ADMIN = 'admin@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const GUEST = 'guest@northside.demo.local';
const SUPER = 'superadmin@demo.local';
const DATASET = scaleDatasetId(0);

type Probe = {
  name: string;
  as: string;
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Reads the second page: the first page's nextToken is passed on. */
  secondPage?: boolean;
};

const PROBES: Probe[] = [
  { name: 'datasets list', as: ADMIN, path: '/api/datasets', query: { limit: '12' } },
  { name: 'datasets list, page 2', as: ADMIN, path: '/api/datasets', query: { limit: '12' }, secondPage: true },
  { name: 'datasets by status', as: ADMIN, path: '/api/datasets', query: { limit: '12', status: 'FAILED' } },
  { name: 'datasets search (rare)', as: ADMIN, path: '/api/datasets', query: { limit: '12', search: 'glioma' } },
  { name: 'datasets search (alias)', as: ADMIN, path: '/api/datasets', query: { limit: '12', search: 'PT-000010' } },
  { name: 'datasets list (team)', as: LEAD, path: '/api/datasets', query: { limit: '12' } },
  { name: 'datasets team by status', as: MEMBER, path: '/api/datasets', query: { limit: '12', status: 'COMPLETE' } },
  { name: 'recycle bin', as: ADMIN, path: '/api/datasets/recycle-bin' },
  { name: 'dataset view', as: LEAD, path: `/api/datasets/${DATASET}` },
  { name: 'dataset series', as: LEAD, path: `/api/datasets/${DATASET}/series` },
  { name: 'dataset history', as: ADMIN, path: `/api/datasets/${DATASET}/history` },
  { name: 'patient shares of a dataset', as: LEAD, path: `/api/datasets/${DATASET}/patient-shares` },
  { name: 'team shares of a dataset', as: LEAD, path: `/api/datasets/${DATASET}/team-shares` },
  { name: 'team DICOM shares', as: LEAD, path: `/api/teams/${DEMO_TEAM}/dicom-shares` },
  { name: 'shares received', as: MEMBER, path: '/api/shares/received' },
  { name: 'share approvals', as: LEAD, path: '/api/shares/approvals' },
  { name: 'users list', as: ADMIN, path: '/api/users', query: { limit: '25' } },
  { name: 'users list, page 2', as: ADMIN, path: '/api/users', query: { limit: '25' }, secondPage: true },
  { name: 'users by role', as: ADMIN, path: '/api/users', query: { limit: '25', role: 'GUEST' } },
  { name: 'users search', as: ADMIN, path: '/api/users', query: { limit: '25', q: 'avery012' } },
  { name: 'teams list', as: ADMIN, path: '/api/teams', query: { limit: '20' } },
  { name: 'team', as: ADMIN, path: `/api/teams/${scaleTeamId(7)}` },
  { name: 'team members', as: ADMIN, path: `/api/teams/${scaleTeamId(7)}/members`, query: { limit: '20' } },
  { name: 'team analytics (30 days)', as: LEAD, path: `/api/teams/${DEMO_TEAM}/analytics` },
  {
    name: 'team analytics (year)',
    as: LEAD,
    path: `/api/teams/${DEMO_TEAM}/analytics`,
    query: { period: 'LAST_YEAR' },
  },
  { name: 'departments', as: ADMIN, path: '/api/departments' },
  { name: 'invitations', as: ADMIN, path: '/api/invitations' },
  { name: 'team invitations', as: LEAD, path: `/api/teams/${DEMO_TEAM}/invitations` },
  { name: 'hospital-admin overview', as: ADMIN, path: '/api/hospital-admin/overview' },
  { name: 'dashboard', as: SUPER, path: '/api/dashboard' },
  { name: 'dashboard', as: ADMIN, path: '/api/dashboard' },
  { name: 'dashboard', as: LEAD, path: '/api/dashboard' },
  { name: 'dashboard', as: MEMBER, path: '/api/dashboard' },
  { name: 'dashboard', as: GUEST, path: '/api/dashboard' },
  { name: 'usage', as: ADMIN, path: '/api/usage' },
  { name: 'usage', as: SUPER, path: '/api/usage', query: { hospitalId: SCALE_HOSPITAL } },
  { name: 'hospitals list', as: SUPER, path: '/api/hospitals' },
  { name: 'hospital', as: SUPER, path: `/api/hospitals/${SCALE_HOSPITAL}` },
  { name: 'notifications', as: MEMBER, path: '/api/notifications' },
  { name: 'audit list', as: ADMIN, path: '/api/audit', query: { limit: '50' } },
  { name: 'audit list, page 2', as: ADMIN, path: '/api/audit', query: { limit: '50' }, secondPage: true },
  { name: 'audit by target', as: ADMIN, path: '/api/audit', query: { limit: '50', target: DATASET } },
  { name: 'audit by actor', as: ADMIN, path: '/api/audit', query: { limit: '50', actor: subOf(MEMBER) } },
  { name: 'audit by action', as: ADMIN, path: '/api/audit', query: { limit: '50', action: 'DATASET_VIEWED' } },
  { name: 'audit verify', as: ADMIN, method: 'POST', path: '/api/audit/verify', body: {} },
  { name: 'compliance', as: ADMIN, path: '/api/compliance' },
  { name: 'reports (3 months)', as: ADMIN, path: '/api/reports' },
  { name: 'reports (12 months)', as: ADMIN, path: '/api/reports', query: { months: '12' } },
  { name: 'reports (team)', as: LEAD, path: '/api/reports' },
];

type Measured = { status: number; count: ReadCount; ms: number };
const ROLE_OF: Record<string, string> = {
  [ADMIN]: 'admin',
  [LEAD]: 'lead',
  [MEMBER]: 'member',
  [GUEST]: 'guest',
  [SUPER]: 'super',
};

// Every client the harness and the adapters build carries the meter, so no read escapes it.
const meter = createReadMeter();
registerClientHook((client) => meter.attach(client));
const h = await startHarness();

/** The probe's query; for a second page, with the token the first page answered. */
async function queryOf(probe: Probe): Promise<Record<string, string> | undefined> {
  if (!probe.secondPage) return probe.query;
  const first = await h.call('GET', probe.path, { as: probe.as, query: probe.query });
  return { ...probe.query, nextToken: String((first.body as { nextToken?: string } | undefined)?.nextToken ?? '') };
}

async function measure(probe: Probe): Promise<Measured> {
  // Warm: the handler's modules, the caches of the policy and of the caller.
  await h.call(probe.method ?? 'GET', probe.path, {
    as: probe.as,
    ...(probe.query ? { query: probe.query } : {}),
    ...(probe.body ? { body: probe.body } : {}),
  });
  let last: Measured | undefined;
  const times: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const query = await queryOf(probe);
    meter.reset();
    const t0 = performance.now();
    const answer = await h.call(probe.method ?? 'GET', probe.path, {
      as: probe.as,
      ...(query ? { query } : {}),
      ...(probe.body ? { body: probe.body } : {}),
    });
    const ms = performance.now() - t0;
    times.push(ms);
    last = { status: answer.status, count: meter.reset(), ms };
  }
  times.sort((a, b) => a - b);
  return { ...last!, ms: times[Math.floor(times.length / 2)]! };
}

const results = new Map<number, Measured[]>();
const seeding: { size: number; items: number; seconds: number }[] = [];
let seeded = 0;
let t = performance.now();
const orgItems = await seedOrganisation(h.table, shape);
say(
  `organisation: ${shape.users} users (with search tokens), ${shape.teams} teams, ${shape.invitations} invitations: ` +
    `${orgItems} items in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
for (const size of sizes) {
  t = performance.now();
  let items = await seedDatasets(h.table, shape, seeded, size);
  items += await seedAuditEvents(h.table, shape, seeded, size);
  if (seeded === 0) items += await seedPatientShares(h.table, shape);
  const seconds = (performance.now() - t) / 1000;
  seeding.push({ size, items, seconds });
  say(
    `size ${size}: seeded ${size - seeded} datasets (${shape.seriesPerDataset} series each), ` +
      `${(size - seeded) * shape.auditPerDataset} audit events${seeded === 0 ? `, ${shape.patientShares} patient shares` : ''}: ` +
      `${items} items in ${seconds.toFixed(1)} s (${(items / seconds).toFixed(0)} items/s)`,
  );
  seeded = size;
  const measured: Measured[] = [];
  for (const probe of PROBES) measured.push(await measure(probe));
  results.set(size, measured);
}

const small = sizes[0]!;
const large = sizes.at(-1)!;
const cells = (m: Measured) => [
  String(m.status),
  String(m.count.queries + m.count.gets),
  String(m.count.itemsRead),
  m.count.capacity.toFixed(1),
  `${m.ms.toFixed(0)} ms`,
];
const widths = [34, 8];
const header = ['route', 'as', ...sizes.flatMap((s) => [`@${s}`, 'calls', 'items', 'RCU', 'time']), 'grows?'];
say();
say(
  `items = items DynamoDB evaluated (ScannedCount, Get, BatchGet); calls = read calls; RCU = read capacity reported; ` +
    `time = median of ${repeat}`,
);
const pad = (c: string, i: number) => c.padEnd(widths[i] ?? 9);
say(header.map(pad).join(''));
const grown: string[] = [];
const failed: string[] = [];
const rows: Record<string, unknown>[] = [];
PROBES.forEach((probe, i) => {
  const at = sizes.map((s) => results.get(s)![i]!);
  const a = at[0]!;
  const b = at.at(-1)!;
  // Grows: more items read at the largest size than at the smallest, beyond a page's worth of slack.
  const grows =
    b.count.itemsRead > a.count.itemsRead + 25 || b.count.queries + b.count.gets > a.count.queries + a.count.gets + 2;
  if (grows) grown.push(`${probe.name} (${ROLE_OF[probe.as]})`);
  if (at.some((m) => m.status >= 400))
    failed.push(`${probe.name} (${ROLE_OF[probe.as]}): ${at.map((m) => m.status).join('/')}`);
  say(
    [probe.name, ROLE_OF[probe.as]!, ...at.flatMap((m) => ['', ...cells(m)]), grows ? 'GROWS' : 'flat']
      .map(pad)
      .join(''),
  );
  rows.push({
    route: probe.name,
    as: ROLE_OF[probe.as],
    path: probe.path,
    query: probe.query,
    sizes: Object.fromEntries(sizes.map((s, k) => [s, { status: at[k]!.status, ...at[k]!.count, ms: at[k]!.ms }])),
    grows,
  });
});
say();
for (const s of seeding) say(`seeded at ${s.size}: ${s.items} items in ${s.seconds.toFixed(1)} s`);
say(
  `${grown.length} of ${PROBES.length} routes read more at ${large} datasets than at ${small}: ${grown.join(', ') || 'none'}`,
);
if (failed.length) say(`failed: ${failed.join('; ')}`);
if (values.out) writeFileSync(values.out, JSON.stringify({ shape, sizes, seeding, rows }, null, 2));
await h.stop();
process.exit(grown.length || failed.length ? 1 : 0);
