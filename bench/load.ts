/**
 * The load bench: the local twin on a throw-away data folder, `--users` signed-in users (seeded as
 * the demo users are, team members of the uploader's team) listing datasets (GET /api/datasets), opening one
 * (GET /api/datasets/{id}) and polling the two studies that upload and process meanwhile (GET /api/datasets/{id} every
 * 2 s, as the site's upload page does), driven by autocannon, one connection per user, each with its own ID token.
 * Two studies from the shared data are uploaded at the same time by `iws upload` (in their own processes) as the load
 * starts; the load stops when both have ended. Prints throughput, p50/p99 latency and errors per route, and the
 * studies' outcome. A 10 s warm-up (every user listing, not measured) comes first, so the API's threads are started.
 * Users list and open at `--rate` requests a second each (0: as fast as answers come, a saturation figure).
 * Not a test: it prints; exit status 1 when a study does not reach COMPLETE, a request failed, or a p99 is 1 s or more.
 * Run: npm run bench:load [-- --users 50 --rate 1 --timeout <seconds>] [--keep] [--verbose]
 */
import autocannon, { type Result } from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fetchRuntimeConfig, signInWithPassword } from '#cli/commands/upload.ts';
import { startLocalStack } from '#infra/local/stack.ts';
import { createApiClient } from '#shared/client/index.ts';
import { DEMO_USERS, type DemoUser } from '#shared/domain/demo/demo-data.ts';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { formatTable, GE_T1_FOLDER, listFolderFiles, SHARED_DATA, totalBytes } from './lib/data.ts';
import { iwsUpload, type IwsUploadResult } from './lib/iws-upload.ts';

const MEMBER = 'member@northside.demo.local';
const TERMINAL = new Set(['COMPLETE', 'FAILED']);
/** The site's upload page polls an active dataset this often (web/src/app/routes/upload/upload.tsx). */
const POLL_INTERVAL_S = 2;
const WARM_UP_MS = 10_000;
const STUDIES = [
  { name: 'GE T1', folder: GE_T1_FOLDER },
  { name: 'Philips DTI', folder: join(SHARED_DATA, 'dicom/philips-dti-b2000/dicom/601_WIP_dti_ax') },
];

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '50' },
    rate: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '1200' },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const users = Math.max(5, Number(values.users) || 50);
const rate = Math.max(0, Number(values.rate));
const timeoutMs = (Number(values.timeout) || 1200) * 1000;
const say = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The load's users: team members of the uploader's team, so every dataset of the bench is theirs to see. */
function loadUsers(count: number): DemoUser[] {
  const member = DEMO_USERS.find((u) => u.email === MEMBER)!;
  return Array.from({ length: count }, (_, i) => ({
    ...member,
    email: `load-${String(i + 1).padStart(2, '0')}@northside.demo.local`,
    firstName: 'Load',
    lastName: `User ${i + 1}`,
  }));
}

type Route = {
  route: string;
  path: string;
  connections: number;
  /** Requests a second per connection (at least 1, autocannon's floor)… */
  connectionRate?: number;
  /** …or for all of the route's connections together (the pollers: one request per user every 2 s). */
  overallRate?: number;
  tokens: string[];
};

/** One autocannon instance per route, each connection a user with its own token; resolves when stopped. */
function load(baseUrl: string, route: Route): { stop: () => void; result: Promise<Result> } {
  let next = 0;
  let instance: ReturnType<typeof autocannon> | undefined;
  const result = new Promise<Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `${baseUrl}${route.path}`,
        connections: route.connections,
        // Stopped when both studies have ended; this is only the ceiling.
        duration: Math.ceil(timeoutMs / 1000),
        timeout: 10,
        ...(route.connectionRate ? { connectionRate: route.connectionRate } : {}),
        ...(route.overallRate ? { overallRate: route.overallRate } : {}),
        setupClient: (client) =>
          client.setHeaders({ authorization: `Bearer ${route.tokens[next++ % route.tokens.length]}` }),
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
  });
  return { stop: () => instance?.stop(), result };
}

if (!values.verbose) process.env.IWS_SILENT_LOGS = '1';
const dataDir = mkdtempSync(join(tmpdir(), 'iws-bench-load-'));
const demoPassword = `Bench-${randomBytes(9).toString('base64url')}-7a!`;
let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
let exitCode = 0;
try {
  const twin = await startLocalStack({
    dataDir,
    port: 0,
    demoPassword,
    buildSite: false,
    quiet: true,
    extraUsers: loadUsers(users),
  });
  stack = twin;
  const config = await fetchRuntimeConfig(twin.url);
  const signInStarted = performance.now();
  const tokens: string[] = [];
  for (const user of loadUsers(users))
    tokens.push((await signInWithPassword(config, user.email, demoPassword)).idToken);
  say(`Twin up; ${users} users seeded and signed in (${seconds(performance.now() - signInStarted)} for the sign-ins)`);
  const request = createApiClient({ baseUrl: config.apiBaseUrl, getToken: async () => tokens[0]! });
  // Warm-up, not measured: every user lists once at full speed, so the API's threads exist (their cold starts) before
  // the measured load, as a service in use has its Lambdas warm.
  const warmUp = load(twin.url, {
    route: 'warm-up',
    path: '/api/datasets',
    connections: users,
    tokens,
  });
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
  warmUp.stop();
  await warmUp.result;

  // The two uploads start together; the load starts with them, once each has a dataset to poll.
  const uploads = STUDIES.map((study, i) =>
    iwsUpload({
      url: twin.url,
      folder: study.folder,
      email: MEMBER,
      password: demoPassword,
      mrn: `LOAD-${i + 1}`,
      description: `Load bench ${study.name}`,
    }),
  );
  for (const study of STUDIES) {
    const paths = listFolderFiles(study.folder);
    say(`uploading ${study.name}: ${paths.length} files, ${(totalBytes(paths) / 1048576).toFixed(1)} MiB`);
  }
  const createdBy = Date.now() + 60_000;
  let ids: string[] = [];
  while (ids.length < STUDIES.length && Date.now() < createdBy) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const list = await request<{ items: Dataset[] }>('GET', '/api/datasets');
    ids = list.items.filter((d) => d.studyDescription.startsWith('Load bench')).map((d) => d.id);
  }
  if (ids.length < STUDIES.length) throw new Error('the uploads did not create their datasets within a minute');

  const userTokens = (from: number, count: number) => tokens.slice(from, from + count);
  const listUsers = Math.round(users * 0.4);
  const openUsers = Math.round(users * 0.3);
  const pollUsers = users - listUsers - openUsers;
  const perRate = rate > 0 ? { connectionRate: rate } : {};
  const routes: Route[] = [
    { route: 'list', path: '/api/datasets', connections: listUsers, ...perRate, tokens: userTokens(0, listUsers) },
    {
      route: 'get',
      path: `/api/datasets/${ids[0]}`,
      connections: openUsers,
      ...perRate,
      tokens: userTokens(listUsers, openUsers),
    },
    ...ids.map((id, i) => {
      const count = i === 0 ? Math.ceil(pollUsers / 2) : Math.floor(pollUsers / 2);
      return {
        route: `poll ${STUDIES[i]!.name}`,
        path: `/api/datasets/${id}`,
        connections: count,
        overallRate: Math.max(1, Math.round(count / POLL_INTERVAL_S)),
        tokens: userTokens(listUsers + openUsers + (i === 0 ? 0 : Math.ceil(pollUsers / 2)), count),
      };
    }),
  ];
  const loadStarted = performance.now();
  const running = routes.map((route) => ({ route, ...load(twin.url, route) }));

  const uploaded: (IwsUploadResult | Error)[] = await Promise.all(
    uploads.map((upload) =>
      upload.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    ),
  );
  const deadline = Date.now() + timeoutMs;
  let outcome: Dataset[] = [];
  const completedAt = new Map<string, number>();
  while (Date.now() < deadline) {
    outcome = await Promise.all(ids.map((id) => request<Dataset>('GET', `/api/datasets/${id}`)));
    for (const dataset of outcome)
      if (TERMINAL.has(dataset.status) && !completedAt.has(dataset.id))
        completedAt.set(dataset.id, performance.now() - loadStarted);
    if (outcome.every((dataset) => TERMINAL.has(dataset.status))) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  for (const run of running) run.stop();
  const results = await Promise.all(running.map((run) => run.result));
  const loadMs = performance.now() - loadStarted;

  say(
    `\nLoad: ${users} users for ${seconds(loadMs)} (until both studies ended); users list and open at ${rate > 0 ? `${rate} request(s)/s each` : 'full speed'}, pollers every ${POLL_INTERVAL_S} s`,
  );
  const rows = results.map((result, i) => {
    const route = routes[i]!;
    const failed = result.errors + result.timeouts + result.non2xx;
    if (failed > 0 || result.latency.p99 >= 1000) exitCode = 1;
    return [
      route.route,
      String(route.connections),
      String(result.requests.total),
      `${(result.requests.total / (loadMs / 1000)).toFixed(1)}/s`,
      `${result.latency.p50} ms`,
      `${result.latency.p99} ms`,
      `${result.latency.max} ms`,
      `${result.errors + result.timeouts} / ${result.non2xx}`,
      Object.entries(result.statusCodeStats ?? {})
        .map(([code, { count }]) => `${code}: ${count}`)
        .join(', '),
    ];
  });
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  rows.push(['all', String(users), String(total), `${(total / (loadMs / 1000)).toFixed(1)}/s`, '', '', '', '', '']);
  say(formatTable(['route', 'users', 'requests', 'throughput', 'p50', 'p99', 'max', 'errors / non-2xx'], rows));
  say('\nStudies uploaded and processed under the load');
  say(
    formatTable(
      ['study', 'upload wall', 'status', 'ended after (from load start)'],
      STUDIES.map((study, i) => {
        const upload = uploaded[i]!;
        const dataset = outcome[i];
        if (dataset?.status !== 'COMPLETE') exitCode = 1;
        return [
          study.name,
          upload instanceof Error ? `failed: ${upload.message.split('\n')[0]}` : seconds(upload.wallMs),
          dataset ? `${dataset.status}${dataset.failureReason ? ` (${dataset.failureReason})` : ''}` : 'unknown',
          dataset && completedAt.has(dataset.id) ? seconds(completedAt.get(dataset.id)!) : 'not ended',
        ];
      }),
    ),
  );
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitCode = 1;
} finally {
  await stack?.stop();
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  else say(`\ndata folder kept: ${dataDir}`);
}
process.exit(exitCode);
