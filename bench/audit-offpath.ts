/**
 * The audit bench (docs/domain.md#how-an-event-travels): audited dataset views of one hospital at `--rate` a second
 * for `--duration` seconds, through the real datasets handler in process on the twin's DynamoDB stand-in (the harness
 * of tests/integration/datasets-harness.ts; the stand-in in a process of its own, as the twin runs it), in three modes
 * one after the other on the same table:
 *   off       the same GET with auditing switched off (no event is written)
 *   deferred  every view writes one pending event and answers; a stand-in for the table's stream chains them behind
 *             in batches, in a process of its own (bench/lib/audit-chainer.ts, the appender's own chainer)
 *   sync      every view appends to the chain before it answers (the conditional head write per event, as before)
 * Every view is audited (the read window, which records a user's repeated views once, is set aside), so the rate is
 * the rate of events. The load is open: a request starts every 1/rate s whether or not earlier ones answered.
 * Prints p50/p95/p99 of each mode side by side, the deferred/off ratio (target: p99 within 1.2x), and after the
 * deferred run the number of events chained and verified (a full walk of the chain).
 * Not a test: it prints; exit status 1 when a request failed or an event is missing from the verified chain.
 * Run: npm run bench:audit [-- --rate 100 --duration 60 --modes off,deferred,sync]
 */
import { parseArgs } from 'node:util';
import { createAuditLog } from '#functions/adapters/dynamo/audit-log.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import { VerifyAuditResponseSchema } from '#shared/schemas/api/audit.ts';
import { startChainerProcess } from './lib/audit-chainer.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { startHarness } from '#tests/integration/datasets-harness.ts';

const HOSPITAL = 'hosp-northside';
const ADMIN = 'admin@northside.demo.local';
const VIEWERS = ['lead@northside.demo.local', 'member@northside.demo.local'];
const DATASETS = 20;
const MODES = ['off', 'deferred', 'sync'] as const;
type Mode = (typeof MODES)[number];

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'off,deferred,sync' },
  },
});
const rate = Math.max(1, Number(values.rate) || 100);
const durationS = Math.max(1, Number(values.duration) || 10);
const modes = values.modes.split(',').filter((m): m is Mode => (MODES as readonly string[]).includes(m));
const say = (line = '') => process.stdout.write(`${line}\n`);

/** Every view audited: the read window's marker is not claimed, so each view records its event. */
function everyViewAudited(audit: AuditLog): AuditLog {
  return { ...audit, claimReadWindow: async () => true };
}

/** Auditing switched off: no view is recorded (the window says each is a repeat) and nothing else is written. */
function auditingOff(audit: AuditLog): AuditLog {
  return { ...audit, claimReadWindow: async () => false };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type Run = { latencies: number[]; failed: number; requested: number; wallS: number };

const h = await startHarness({ dynamoInOwnProcess: true });
// The chainer in a process of its own, as the stream's function is in the cloud. Records gather for a quarter of a
// second, as Lambda polls a stream's shard several times a second.
const stream = await startChainerProcess(h.table, process.env.DYNAMODB_ENDPOINT!, { windowMs: 250 });
const direct = createAuditLog(h.table);
const deferred = createAuditLog(h.table, undefined, stream.writer);
const datasetIds: string[] = [];
for (let i = 0; i < DATASETS; i++) {
  const created = await h.call('POST', '/api/datasets', { as: VIEWERS[1], body: newDatasetBody() });
  if (created.status !== 201) throw new Error(`dataset not created: ${created.status}`);
  datasetIds.push(created.body.id as string);
}

async function run(mode: Mode): Promise<Run> {
  h.deps.audit =
    mode === 'off' ? auditingOff(direct) : everyViewAudited(mode === 'deferred' ? deferred : createAuditLog(h.table));
  // A short warm-up, not measured: the handler's modules and the clients' connections.
  for (let i = 0; i < 20; i++) await h.call('GET', `/api/datasets/${datasetIds[i % DATASETS]}`, { as: VIEWERS[0] });
  const total = rate * durationS;
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t0 = performance.now();
    inFlight.push(
      h
        .call('GET', `/api/datasets/${datasetIds[i % DATASETS]}`, { as: VIEWERS[i % VIEWERS.length] })
        .then((answer) => {
          if (answer.status !== 200) failed++;
          latencies.push(performance.now() - t0);
        })
        .catch(() => void failed++),
    );
  }
  await Promise.all(inFlight);
  const wallS = (performance.now() - started) / 1000;
  return { latencies: latencies.sort((a, b) => a - b), failed, requested: total, wallS };
}

say(`audit bench: ${rate} views/s for ${durationS} s per mode (${modes.join(', ')}), one hospital, in process`);
const results = new Map<Mode, Run>();
let chainedBefore = (await direct.head(HOSPITAL))?.seq ?? 0;
let deferredCheck: { chained: number; verified: boolean; checkedEvents: number; head: number } | undefined;
for (const mode of modes) {
  if (mode === 'deferred') {
    await stream.settled();
    chainedBefore = (await direct.head(HOSPITAL))?.seq ?? 0;
  }
  const result = await run(mode);
  results.set(mode, result);
  if (mode === 'deferred') {
    const settleStarted = performance.now();
    await stream.settled();
    const settleMs = performance.now() - settleStarted;
    const head = (await direct.head(HOSPITAL))?.seq ?? 0;
    h.deps.audit = direct;
    const verify = VerifyAuditResponseSchema.parse(
      (await h.call('POST', '/api/audit/verify', { as: ADMIN, body: { full: true } })).body,
    );
    deferredCheck = {
      chained: head - chainedBefore,
      verified: verify.verified,
      checkedEvents: verify.checkedEvents,
      head,
    };
    say(
      `deferred: the chainer caught up ${settleMs.toFixed(0)} ms after the last answer (${stream.batches()} transactions so far)`,
    );
  }
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '-');
say();
say(['mode', 'answered', 'failed', 'achieved/s', 'p50', 'p95', 'p99'].map((c) => c.padEnd(12)).join(''));
for (const [mode, r] of results) {
  say(
    [
      mode,
      String(r.latencies.length),
      String(r.failed),
      (r.requested / r.wallS).toFixed(1),
      ms(percentile(r.latencies, 50)),
      ms(percentile(r.latencies, 95)),
      ms(percentile(r.latencies, 99)),
    ]
      .map((c) => c.padEnd(12))
      .join(''),
  );
}
const off = results.get('off');
for (const mode of ['deferred', 'sync'] as const) {
  const r = results.get(mode);
  if (!off || !r) continue;
  const ratio = (p: number) => (percentile(r.latencies, p) / percentile(off.latencies, p)).toFixed(2);
  say(`${mode}/off: p50 ${ratio(50)}x, p95 ${ratio(95)}x, p99 ${ratio(99)}x (target p99 within 1.2x)`);
}
let missing = false;
if (deferredCheck) {
  const expected = results.get('deferred')!.latencies.length + 20;
  say(
    `deferred: ${deferredCheck.chained} events chained (${expected} audited views, warm-up included); ` +
      `chain verified: ${deferredCheck.verified}, ${deferredCheck.checkedEvents} events checked (head at ${deferredCheck.head})`,
  );
  missing = deferredCheck.chained !== expected || !deferredCheck.verified;
}
stream.close();
await h.stop();
const anyFailed = [...results.values()].some((r) => r.failed > 0);
process.exit(anyFailed || missing ? 1 : 0);
