/**
 * The load bench: the local twin on a throw-away data folder, `--users` signed-in users (seeded as
 * the demo users are, team members of the uploader's team) listing datasets (GET /api/datasets), opening one
 * (GET /api/datasets/{id}) and polling the two studies that upload and process meanwhile (GET /api/datasets/{id} every
 * second, where the site's upload page polls every 2 s), driven by autocannon: one instance and one connection per
 * user, each with its own ID token, started at a random moment of the first second.
 * Two studies from the shared data are uploaded at the same time by `iws upload` (in their own processes) as the load
 * starts; the load stops when both have ended. Prints throughput, p50/p99 latency and errors per route, and the
 * studies' outcome. A 10 s warm-up (every user listing, not measured) comes first, so the API's threads are started.
 * Users list and open at `--rate` requests a second each (0: as fast as answers come, a saturation figure).
 * Not a test: it prints; exit status 1 when a study does not reach COMPLETE, a request failed, or a p99 is 1 s or more.
 * Run: npm run bench:load [-- --users 50 --rate 1 --timeout <seconds>] [--keep] [--verbose]
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fetchRuntimeConfig, signInWithPassword } from '#cli/commands/upload.ts';
import { invokeTimings } from '#infra/local/function-runtime.ts';
import { startLocalStack } from '#infra/local/stack.ts';
import { createApiClient } from '#shared/client/index.ts';
import { DEMO_USERS, type DemoUser } from '#infra/local/seed/demo-data.ts';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { formatTable, GE_T1_FOLDER, listFolderFiles, SHARED_DATA, totalBytes } from './lib/data.ts';
import { iwsUpload, type IwsUploadResult } from './lib/iws-upload.ts';
import type { HistoryEvent } from './lib/pipeline-timeline.ts';
import { startLoopProbe } from './lib/loop-probe.ts';

const MEMBER = 'member@northside.demo.local';
const TERMINAL = new Set(['COMPLETE', 'FAILED']);
/** The site's upload page polls an active dataset this often (web/src/app/routes/upload/upload.tsx). */
const POLL_INTERVAL_S = 2;
/**
 * autocannon paces a connection at 1 request a second at the least, so the pollers poll every second: twice the
 * site's pace, a heavier load than its users make.
 */
const POLL_RATE = 1;
const WARM_UP_MS = 10_000;
/** Answers this slow or slower are listed by the moment they were asked. */
const SLOW_MS = 500;
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

type Route = { route: string; path: string; tokens: string[] };

/** What one route's users saw: each answer's latency and status, and requests that got no answer. */
type RouteLoad = {
  latencies: number[];
  /** For each answer, when it came (ms since the load started) and how long it took. */
  answers: { atMs: number; ms: number }[];
  statuses: Map<number, number>;
  errors: number;
  timeouts: number;
};

/**
 * A route's users, each its own autocannon instance with one connection and its own token, at `rate` requests a
 * second (0: as fast as answers come). Users start at random moments within the first second: autocannon paces each
 * instance by a one-second tick, and users started together would all send on the same tick, a burst no real users
 * make. Latencies are collected per answer, so p50 and p99 are computed over every request of the route.
 */
function load(
  baseUrl: string,
  route: Route,
  rate: number,
  startedAt = performance.now(),
): { stop: () => void; result: Promise<RouteLoad> } {
  const seen: RouteLoad = { latencies: [], answers: [], statuses: new Map(), errors: 0, timeouts: 0 };
  const instances: ReturnType<typeof autocannon>[] = [];
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  const runs = route.tokens.map(
    (token) =>
      new Promise<void>((resolve, reject) => {
        timers.push(
          setTimeout(() => {
            if (stopped) return resolve();
            const instance = autocannon(
              {
                url: `${baseUrl}${route.path}`,
                connections: 1,
                // Stopped when both studies have ended; this is only the ceiling.
                duration: Math.ceil(timeoutMs / 1000),
                timeout: 10,
                headers: { authorization: `Bearer ${token}` },
                ...(rate > 0 ? { connectionRate: rate } : {}),
              },
              (error, result) => {
                if (error) return reject(error);
                seen.errors += result.errors - result.timeouts;
                seen.timeouts += result.timeouts;
                resolve();
              },
            );
            instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
              seen.latencies.push(ms);
              seen.answers.push({ atMs: performance.now() - startedAt, ms });
              seen.statuses.set(status, (seen.statuses.get(status) ?? 0) + 1);
            });
            instances.push(instance);
          }, Math.random() * 1000),
        );
      }),
  );
  return {
    stop: () => {
      stopped = true;
      timers.forEach(clearTimeout);
      instances.forEach((instance) => instance.stop());
    },
    result: Promise.all(runs).then(() => seen),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
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
  const warmUp = load(twin.url, { route: 'warm-up', path: '/api/datasets', tokens }, 1);
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
    // The bench's own look-ups are not measured: one the cap refuses (the warm-up's last requests) is asked again.
    const list = await request<{ items: Dataset[] }>('GET', '/api/datasets').catch(() => undefined);
    if (!list) continue;
    ids = list.items.filter((d) => d.studyDescription.startsWith('Load bench')).map((d) => d.id);
  }
  if (ids.length < STUDIES.length) throw new Error('the uploads did not create their datasets within a minute');

  const listUsers = Math.round(users * 0.4);
  const openUsers = Math.round(users * 0.3);
  const pollUsers = users - listUsers - openUsers;
  const firstPollers = Math.ceil(pollUsers / 2);
  const routes: (Route & { rate: number })[] = [
    { route: 'list', path: '/api/datasets', tokens: tokens.slice(0, listUsers), rate },
    {
      route: 'get',
      path: `/api/datasets/${ids[0]}`,
      tokens: tokens.slice(listUsers, listUsers + openUsers),
      rate,
    },
    ...ids.map((id, i) => ({
      route: `poll ${STUDIES[i]!.name}`,
      path: `/api/datasets/${id}`,
      tokens:
        i === 0
          ? tokens.slice(listUsers + openUsers, listUsers + openUsers + firstPollers)
          : tokens.slice(listUsers + openUsers + firstPollers, users),
      rate: POLL_RATE,
    })),
  ];
  const loadStarted = performance.now();
  const loadStartedAt = Date.now();
  const probe = startLoopProbe();
  invokeTimings.clear();
  const running = routes.map((route) => ({ route, ...load(twin.url, route, route.rate, loadStarted) }));

  const uploaded: (IwsUploadResult | Error)[] = await Promise.all(
    uploads.map((upload) =>
      upload.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    ),
  );
  const deadline = Date.now() + timeoutMs;
  let outcome: Dataset[] = [];
  const completedAt = new Map<string, number>();
  while (Date.now() < deadline) {
    const seen = await Promise.all(ids.map((id) => request<Dataset>('GET', `/api/datasets/${id}`))).catch(
      () => undefined,
    );
    if (seen) outcome = seen;
    for (const dataset of outcome)
      if (TERMINAL.has(dataset.status) && !completedAt.has(dataset.id))
        completedAt.set(dataset.id, performance.now() - loadStarted);
    if (outcome.length === ids.length && outcome.every((dataset) => TERMINAL.has(dataset.status))) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  for (const run of running) run.stop();
  const results = await Promise.all(running.map((run) => run.result));
  const loadMs = performance.now() - loadStarted;
  const loop = probe.stop();

  say(
    `\nLoad: ${users} users for ${seconds(loadMs)} (until both studies ended); users list and open at ${rate > 0 ? `${rate} request(s)/s each` : 'full speed'}, pollers every ${1 / POLL_RATE} s (the site: every ${POLL_INTERVAL_S} s)`,
  );
  const rows: string[][] = [];
  let total = 0;
  results.forEach((seen, i) => {
    const route = routes[i]!;
    const sorted = [...seen.latencies].sort((a, b) => a - b);
    const answered = sorted.length;
    total += answered;
    const non2xx = [...seen.statuses].filter(([code]) => code < 200 || code > 299).reduce((n, [, c]) => n + c, 0);
    const p99 = percentile(sorted, 99);
    if (seen.errors + seen.timeouts + non2xx > 0 || p99 >= 1000) exitCode = 1;
    rows.push([
      route.route,
      String(route.tokens.length),
      String(answered),
      `${(answered / (loadMs / 1000)).toFixed(1)}/s`,
      `${percentile(sorted, 50).toFixed(0)} ms`,
      `${p99.toFixed(0)} ms`,
      `${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
      `${seen.errors + seen.timeouts} / ${non2xx}`,
      [...seen.statuses].map(([code, count]) => `${code}: ${count}`).join(', '),
    ]);
  });
  rows.push(['all', String(users), String(total), `${(total / (loadMs / 1000)).toFixed(1)}/s`, '', '', '', '', '']);
  say(
    formatTable(
      ['route', 'users', 'requests', 'throughput', 'p50', 'p99', 'max', 'errors / non-2xx', 'statuses'],
      rows,
    ),
  );
  // The twin's router, dynalite, s3rver and the load's clients share this process's event loop.
  const stallCpu = loop.stalls.reduce((sum, stall) => sum + (stall.cpuMs ?? 0), 0);
  say(
    `\nMain event loop (router, dynalite, s3rver, autocannon): delay p50 ${loop.p50Ms.toFixed(0)} ms, p99 ${loop.p99Ms.toFixed(0)} ms, max ${loop.maxMs.toFixed(0)} ms; ${loop.stalls.length} stall(s) of 500 ms or more, ${seconds(loop.stalls.reduce((sum, stall) => sum + stall.wallMs, 0))} in all, the main thread on a core ${seconds(stallCpu)} of it`,
  );
  for (const stall of [...loop.stalls].sort((a, b) => b.wallMs - a.wallMs).slice(0, 5))
    say(
      `  at ${seconds(stall.atMs)}: ${stall.wallMs.toFixed(0)} ms${stall.cpuMs === undefined ? '' : `, main thread CPU ${stall.cpuMs.toFixed(0)} ms`}`,
    );
  say(
    `Machine load average (1, 5, 15 min): ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
  // Where a request's time goes: the API functions and the audit appender they call, each in threads of its own.
  say('\nFunction calls during the load (waiting for a thread / running in it)');
  say(
    formatTable(
      ['function', 'calls', 'wait p50', 'wait p99', 'run p50', 'run p99'],
      [...invokeTimings].map(([name, t]) => {
        const wait = [...t.waitMs].sort((a, b) => a - b);
        const run = [...t.runMs].sort((a, b) => a - b);
        const ms = (n: number) => `${n.toFixed(0)} ms`;
        return [
          name,
          String(run.length),
          ms(percentile(wait, 50)),
          ms(percentile(wait, 99)),
          ms(percentile(run, 50)),
          ms(percentile(run, 99)),
        ];
      }),
    ),
  );
  // When the slow answers were asked, beside what the two studies' pipelines were doing then: a moment that slows
  // every route at once points at a shared resource (a core, dynalite), not at one route's work.
  const slow = results
    .flatMap((seen, i) => seen.answers.map((answer) => ({ ...answer, route: routes[i]!.route })))
    .filter((answer) => answer.ms >= SLOW_MS)
    .map((answer) => ({ ...answer, sentMs: answer.atMs - answer.ms }));
  const transitions: { atMs: number; what: string }[] = [];
  for (const [i, id] of ids.entries()) {
    const history = await request<{ items: HistoryEvent[] }>('GET', `/api/datasets/${id}/history`).catch(
      () => undefined,
    );
    for (const event of history?.items ?? [])
      if (event.action === 'STATUS_CHANGED' || event.action === 'SERIES_CONVERTED' || event.action === 'REPORT_BUILT')
        transitions.push({
          atMs: Date.parse(event.at) - loadStartedAt,
          what: `${STUDIES[i]!.name} ${event.action === 'STATUS_CHANGED' ? `→ ${String(event.details?.to)}` : event.action}`,
        });
  }
  say(`\nAnswers of ${SLOW_MS} ms or more by the second they were asked, beside the studies' pipeline events`);
  const buckets = new Map<number, typeof slow>();
  for (const answer of slow) {
    const second = Math.floor(answer.sentMs / 1000);
    buckets.set(second, [...(buckets.get(second) ?? []), answer]);
  }
  const lines = [
    ...[...buckets].map(([second, list]) => ({
      atMs: second * 1000,
      text: `  ${String(second).padStart(4)} s  ${String(list.length).padStart(3)} slow, longest ${Math.max(...list.map((a) => a.ms)).toFixed(0)} ms (${[...new Set(list.map((a) => a.route))].join(', ')})`,
    })),
    ...transitions.map((t) => ({ atMs: t.atMs, text: `  ${seconds(t.atMs).padStart(9)}  ${t.what}` })),
  ].sort((a, b) => a.atMs - b.atMs);
  for (const line of lines) say(line.text);
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
