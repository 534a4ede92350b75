/**
 * Upload throughput on the local twin: a many-file study sent as the site and `iws upload` send it (one
 * packed archive, docs/domain.md#upload-sessions) against one presigned PUT of a single file of the same bytes, side
 * by side in one run, from Node (`iws upload` in its own process) and from headless Chromium (the site's upload
 * wizard, enhanced mode), with the browser's peak memory during the upload.
 *
 * Studies: a 1,000-file study and a 5,000-file, 1 GiB study, generated from the shared GE T1 by the tests' DICOM
 * generator (bench/lib/generated-study.ts). An upload's time runs from the dataset's creation to the upload's
 * completion, both from its audit history (so it counts the dataset, the session, every part and the completion);
 * the baseline is the PUT's request time alone. The twin's pipeline is held (no execution runs) so nothing else
 * competes for the CPU. Machines are noisy: compare the ratios.
 * Browser memory: the proportional set size (PSS, /proc/<pid>/smaps_rollup), sampled every 200 ms while the upload
 * runs, of the page's own renderer process (the tab and its workers, found by a user-timing mark in a trace: the figure
 * the 300 MB target is read against), of every renderer (Chromium's own WebUI and spare renderers too) and of every
 * Chromium process; and the page's JS heap (CDP Performance.getMetrics).
 * Not a test: it prints, it does not assert.
 * Run: npm run bench:upload [-- --small 1000] [--large 5000] [--large-mib 1024] [--skip-browser] [--skip-large]
 *   [--work <folder for the generated studies, kept between runs>] [--discovery-only] [--verbose] [--memory-dumps]
 *   [--heap-sampling]
 * --discovery-only: in Chromium, only the wizard's file discovery (no single PUT, no upload); with --skip-node, the
 *   quickest way to measure the discovery's memory.
 * Diagnosis (when a memory figure needs explaining): --memory-dumps prints Chromium's memory-infra breakdown of each
 *   process after discovery and at the upload's largest; --heap-sampling prints what the page allocated during the
 *   discovery and the upload (collected objects too), by function and caller, mapped through the site's source maps.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { chromium, type Browser, type Page } from 'playwright-core';
import { diskUploadSource, fetchRuntimeConfig, signInWithPassword } from '#cli/commands/upload.ts';
import { createS3Client } from '#functions/adapters/s3/object-store.ts';
import { BUCKETS, startLocalStack } from '#infra/local/stack.ts';
import { createApiClient, uploadDataset } from '#shared/client/index.ts';
import { fillPatientContext } from '#tests/e2e/wizard.ts';
import { formatTable } from './lib/data.ts';
import { generatedStudyFolder, generateStudy, type GeneratedStudy } from './lib/generated-study.ts';
import { iwsUpload } from './lib/iws-upload.ts';
import { describeProcessMemory, pageRendererPid, startMemoryDumps, type ProcessMemory } from './lib/chromium-memory.ts';
import type { HistoryEvent } from './lib/pipeline-timeline.ts';

const MEMBER = 'member@northside.demo.local';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MiB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    small: { type: 'string', default: '1000' },
    'small-mib': { type: 'string', default: '200' },
    large: { type: 'string', default: '5000' },
    'large-mib': { type: 'string', default: '1024' },
    'skip-browser': { type: 'boolean', default: false },
    'skip-large': { type: 'boolean', default: false },
    'skip-small': { type: 'boolean', default: false },
    'skip-node': { type: 'boolean', default: false },
    'discovery-only': { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'memory-dumps': { type: 'boolean', default: false },
    'heap-sampling': { type: 'boolean', default: false },
    work: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const say = (line = '') => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const rate = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(1)} MiB/s`;

type Run = { label: string; bytes: number; ms: number } & Partial<Peaks>;
const discoveryPeaks: ({ files: number } & Peaks)[] = [];

// ---------- the studies ----------
const work = values.work ?? join(tmpdir(), 'iws-bench-upload');
mkdirSync(work, { recursive: true });
const studies: GeneratedStudy[] = [];
const smallCount = Number(values.small);
const smallBytes = Number(values['small-mib']) * MiB;
const largeCount = Number(values.large);
const largeBytes = Number(values['large-mib']) * MiB;
note(`generating studies under ${work} (kept for the next run)`);
if (!values['skip-small'])
  studies.push(generateStudy(generatedStudyFolder(work, smallCount, values['small-mib']), smallCount, smallBytes));
if (!values['skip-large'])
  studies.push(generateStudy(generatedStudyFolder(work, largeCount, values['large-mib']), largeCount, largeBytes));

// ---------- the twin ----------
if (!values.verbose) process.env.IWS_SILENT_LOGS = '1';
const dataDir = mkdtempSync(join(tmpdir(), 'iws-bench-upload-twin-'));
const demoPassword = `Bench-${randomBytes(9).toString('base64url')}-7a!`;
note('starting the twin (and building the site when it is stale)');
const twin = await startLocalStack({
  dataDir,
  port: 0,
  demoPassword,
  buildSite: !values['skip-browser'],
  quiet: true,
  // Held: uploads are measured, not the pipeline, which would compete for the CPU with the next upload.
  pipelineConcurrency: 0,
});
const config = await fetchRuntimeConfig(twin.url);
const tokens = await signInWithPassword(config, MEMBER, demoPassword);
const request = createApiClient({ baseUrl: config.apiBaseUrl, getToken: async () => tokens.idToken });
const s3 = createS3Client('us-east-1', `${twin.url}/_aws/s3`);

/** A presigned PUT of one object in the uploads bucket (under a benchmark prefix, not a dataset's). */
function singlePutUrl(name: string): Promise<string> {
  return getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKETS.uploads, Key: `bench/${name}` }), {
    expiresIn: 3600,
  });
}

/** Time from the dataset's creation to its upload's completion, from its audit history. */
async function uploadMs(datasetId: string): Promise<number> {
  const history = await request<{ items: HistoryEvent[] }>(
    'GET',
    `/api/datasets/${encodeURIComponent(datasetId)}/history`,
  );
  const at = (action: string) => {
    const event = history.items.find((e) => e.action === action);
    if (!event) throw new Error(`no ${action} in the history of ${datasetId}`);
    return Date.parse(event.at);
  };
  return at('UPLOAD_COMPLETED') - at('DATASET_CREATED');
}

// ---------- Node: single PUT and `iws upload` ----------
async function nodeSinglePut(study: GeneratedStudy): Promise<Run> {
  const url = await singlePutUrl(`node-${study.files}`);
  const body = await openAsBlob(study.single);
  const started = performance.now();
  const response = await fetch(url, { method: 'PUT', body });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`single PUT answered ${response.status}`);
  return { label: `one PUT of ${mib(study.bytes)} (Node fetch)`, bytes: study.bytes, ms: performance.now() - started };
}

/** `iws upload` in its own process (the shared bench helper, the built command); timed from the audit history. */
async function iwsStudyUpload(study: GeneratedStudy): Promise<Run> {
  const { datasetId } = await iwsUpload({
    url: twin.url,
    folder: study.folder,
    email: MEMBER,
    password: demoPassword,
    mrn: `BENCH-${study.files}`,
    description: `Upload benchmark ${study.files} files`,
  });
  return { label: `${study.files} files by \`iws upload\``, bytes: study.bytes, ms: await uploadMs(datasetId) };
}

// ---------- the browser ----------
type Peaks = { peakPageBytes: number; peakRendererBytes: number; peakPssBytes: number; peakHeapBytes: number };
/** `mark` answers the peaks so far and starts over. */
type Sampler = { stop(): Promise<Peaks>; mark(): Promise<Peaks> };

/**
 * Sums the PSS (/proc/<pid>/smaps_rollup) of Chromium's processes (descendants of `root` whose command line names
 * Chromium), renderers apart, every 200 ms, in a worker thread: the twin answers in this process, and reading /proc
 * synchronously here would stall its event loop.
 */
const SAMPLER_SOURCE = `
const { readdirSync, readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const pss = (pid) => { try { const m = /^Pss:\\s+(\\d+) kB/m.exec(readFileSync('/proc/' + pid + '/smaps_rollup', 'utf8')); return m ? Number(m[1]) * 1024 : 0; } catch { return 0; } };
const children = (pid) => { const out = []; try { for (const tid of readdirSync('/proc/' + pid + '/task')) { try { for (const c of readFileSync('/proc/' + pid + '/task/' + tid + '/children', 'utf8').trim().split(' ')) if (c) out.push(Number(c)); } catch {} } } catch {} return out; };
const cmdline = (pid) => { try { return readFileSync('/proc/' + pid + '/cmdline', 'utf8'); } catch { return ''; } };
const kind = (line) => { const t = /--type=(\\S+)/.exec(line); const sub = /--utility-sub-type=(\\S+)/.exec(line); return t ? (sub ? sub[1] : t[1]) : 'browser'; };
let peakAll = 0, peakRenderer = 0, peakPage = 0, atPeak = {};
parentPort.on('message', (m) => { if (m === 'mark') { parentPort.postMessage({ peakAll, peakRenderer, peakPage, atPeak }); peakAll = 0; peakRenderer = 0; peakPage = 0; atPeak = {}; } });
setInterval(() => {
  const tree = [workerData.root];
  for (let i = 0; i < tree.length; i++) for (const c of children(tree[i])) if (!tree.includes(c)) tree.push(c);
  let all = 0, renderer = 0; const byKind = {};
  for (const pid of tree) { const line = cmdline(pid); if (!/chrom/i.test(line)) continue; const v = pss(pid); all += v; if (line.includes('--type=renderer')) renderer += v; const k = kind(line); byKind[k] = (byKind[k] ?? 0) + v; }
  if (all > peakAll) { peakAll = all; atPeak = byKind; }
  peakRenderer = Math.max(peakRenderer, renderer);
  peakPage = Math.max(peakPage, pss(workerData.pagePid));
}, 200);
`;

async function sampleMemory(browser: Browser, page: Page): Promise<Sampler> {
  const pagePid = await pageRendererPid(browser, page);
  const worker = new Worker(SAMPLER_SOURCE, { eval: true, workerData: { root: process.pid, pagePid } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  let peakHeapBytes = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    cdp
      .send('Performance.getMetrics')
      .then(({ metrics }) => {
        peakHeapBytes = Math.max(peakHeapBytes, metrics.find((m) => m.name === 'JSHeapTotalSize')?.value ?? 0);
      })
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, 200);
  const mark = async (): Promise<Peaks> => {
    const answer = new Promise<{
      peakAll: number;
      peakRenderer: number;
      peakPage: number;
      atPeak: Record<string, number>;
    }>((resolve) => worker.once('message', resolve));
    worker.postMessage('mark');
    const { peakAll, peakRenderer, peakPage, atPeak } = await answer;
    if (values.verbose || values['memory-dumps'])
      note(
        `Chromium at its peak: ${Object.entries(atPeak)
          .map(([k, v]) => `${k} ${mib(v)}`)
          .join(', ')}`,
      );
    const peaks = { peakPageBytes: peakPage, peakRendererBytes: peakRenderer, peakPssBytes: peakAll, peakHeapBytes };
    peakHeapBytes = 0;
    return peaks;
  };
  return {
    mark,
    async stop() {
      clearInterval(timer);
      const peaks = await mark();
      await worker.terminate();
      await cdp.detach().catch(() => undefined);
      return peaks;
    },
  };
}

async function launch(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => note(`[page error] ${e.message}`));
  if (values.trace) {
    const t0 = Date.now();
    const short = (url: string) => url.replace(/\?.*$/, '').slice(-60);
    page.on('request', (r) => {
      if (/\/api\/(uploads|datasets)|uploadId=/.test(r.url()))
        note(`${Date.now() - t0} ms -> ${r.method()} ${short(r.url())}`);
    });
    page.on('requestfinished', (r) => {
      if (/\/api\/(uploads|datasets)|uploadId=/.test(r.url()))
        note(`${Date.now() - t0} ms <- ${r.method()} ${short(r.url())}`);
    });
  }
  await page.goto(`${twin.url}/login`);
  await page.getByLabel('Email').fill(MEMBER);
  await page.locator('input[name="password"]').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 60_000 });
  return { browser, page };
}

/** One presigned PUT of the single file from the page, as a site would send one file: the File itself as the body. */
async function browserSinglePut(browser: Browser, page: Page, study: GeneratedStudy): Promise<Run> {
  const url = await singlePutUrl(`browser-${study.files}`);
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-single';
    document.body.append(input);
  });
  await page.locator('#bench-single').setInputFiles(study.single);
  const sampler = await sampleMemory(browser, page);
  const ms = await page.evaluate(async (target) => {
    const file = (document.getElementById('bench-single') as HTMLInputElement).files![0]!;
    const started = performance.now();
    const response = await fetch(target, { method: 'PUT', body: file });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`single PUT answered ${response.status}`);
    return performance.now() - started;
  }, url);
  const memory = await sampler.stop();
  await page.evaluate(() => document.getElementById('bench-single')?.remove());
  return { label: `one PUT of ${mib(study.bytes)} (Chromium fetch)`, bytes: study.bytes, ms, ...memory };
}

/** --heap-sampling: what the page allocates (collected objects included), by function and caller, V8's sampling. */
async function startHeapSampling(page: Page): Promise<{ stop(what: string): Promise<void> }> {
  const heapCdp = await page.context().newCDPSession(page);
  await heapCdp.send('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop(what: string) {
      const { profile } = await heapCdp.send('HeapProfiler.stopSampling');
      type Node = (typeof profile)['head'];
      const bySite = new Map<string, number>();
      const { SourceMapConsumer } = await import('source-map-js');
      const maps = new Map<string, InstanceType<typeof SourceMapConsumer> | undefined>();
      const original = (url: string, line: number, column: number) => {
        const file = url.split('/').pop() ?? '';
        if (!maps.has(file)) {
          const path = join('web/dist/assets', `${file}.map`);
          maps.set(file, existsSync(path) ? new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8'))) : undefined);
        }
        const found = maps.get(file)?.originalPositionFor({ line: line + 1, column });
        return found?.source
          ? `${found.name ?? ''} ${found.source.split('/').slice(-2).join('/')}:${found.line}`
          : `${file}:${line}`;
      };
      const walk = (n: Node, stack: string) => {
        const site = `${n.callFrame.functionName || '(anonymous)'} ${original(n.callFrame.url, n.callFrame.lineNumber, n.callFrame.columnNumber)}`;
        const path = stack ? `${stack} < ${site}` : site;
        if (n.selfSize > 0) bySite.set(path, (bySite.get(path) ?? 0) + n.selfSize);
        for (const c of n.children) walk(c, site);
      };
      walk(profile.head, '');
      const total = [...bySite.values()].reduce((a, b) => a + b, 0);
      note(`Allocated during ${what}: ${mib(total)} sampled (collected objects included); by function < caller:`);
      for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 30))
        note(`  ${mib(bytes).padStart(10)}  ${site}`);
      await heapCdp.detach().catch(() => undefined);
    },
  };
}

/** The site's upload wizard (enhanced uploader) with the study's folder picked; measured from its audit history. */
async function browserWizard(browser: Browser, page: Page, study: GeneratedStudy): Promise<Run | undefined> {
  const description = `Browser benchmark ${study.files} files ${Date.now()}`;
  await page.goto(`${twin.url}/upload`);
  await fillPatientContext(page, {
    mrn: `BENCH-WEB-${study.files}`,
    studyType: 'Research',
    studyDescription: description,
    orderingPhysician: 'Dr Bench',
    department: 'Radiology',
    clinicalIndication: 'Benchmark',
  });
  await page.getByRole('button', { name: 'Continue to File Upload' }).click();
  await page.getByText('Enhanced DICOM Upload (with BIDS support)').click();
  const sampler = await sampleMemory(browser, page);
  // After the sampler, which traces briefly to find the page's process: Chromium runs one trace at a time.
  const dumps = values['memory-dumps'] ? await startMemoryDumps(browser) : undefined;
  const discoverySampling = values['heap-sampling'] ? await startHeapSampling(page) : undefined;
  await page.getByTestId('folder-input').setInputFiles(study.folder);
  await page.getByTestId('discovery-counts').waitFor({ timeout: 900_000 });
  await page.getByRole('button', { name: 'Continue to Series Selection' }).click();
  await page.getByTestId('upload-series-row').first().waitFor();
  await page.getByRole('button', { name: 'Continue to Anonymization' }).click();
  discoveryPeaks.push({ files: study.files, ...(await sampler.mark()) });
  await dumps?.dump();
  await discoverySampling?.stop('the discovery');
  if (values['discovery-only']) {
    await sampler.stop();
    if (dumps) printMemoryDumps(await dumps.end());
    return undefined;
  }
  const heapSampling = values['heap-sampling'] ? await startHeapSampling(page) : undefined;
  await page.getByRole('button', { name: 'Start Upload' }).click();
  const dumping = dumps ? setInterval(() => void dumps.dump().catch(() => undefined), 2_000) : undefined;
  await page.getByText('All files uploaded').waitFor({ timeout: 1_800_000 });
  clearInterval(dumping);
  const memory = await sampler.stop();
  if (dumps) printMemoryDumps(await dumps.end());
  await heapSampling?.stop('the upload');
  const datasets = await request<{ items: { id: string; studyDescription: string }[] }>('GET', '/api/datasets');
  const dataset = datasets.items.find((d) => d.studyDescription === description);
  if (!dataset) throw new Error('the benchmark dataset is not listed');
  return {
    label: `${study.files} files by the site (Chromium)`,
    bytes: study.bytes,
    ms: await uploadMs(dataset.id),
    ...memory,
  };
}

/** --memory-dumps: the dump after discovery, and the upload's dump where the renderers held the most, broken down. */
function printMemoryDumps(all: ProcessMemory[][]): void {
  const renderers = (dump: ProcessMemory[]) => dump.filter((p) => /renderer/i.test(p.process));
  const held = (dump: ProcessMemory[]) => renderers(dump).reduce((sum, p) => sum + p.privateFootprintBytes, 0);
  const [afterDiscovery, ...during] = all;
  const peak = during.reduce<ProcessMemory[] | undefined>(
    (best, d) => (!best || held(d) > held(best) ? d : best),
    undefined,
  );
  for (const [title, dump] of [
    ['after discovery', afterDiscovery],
    [`the upload's largest of ${during.length} dumps`, peak],
  ] as const) {
    if (!dump) continue;
    note(`Memory dump, ${title}:`);
    for (const process of [...dump].sort((a, b) => b.privateFootprintBytes - a.privateFootprintBytes))
      for (const line of describeProcessMemory(process, /renderer/i.test(process.process) ? 16 : 5)) note(line);
  }
}

// ---------- the run ----------
const HEADER = [
  'upload',
  'bytes',
  'time',
  'throughput',
  'vs one PUT',
  'peak page',
  'peak renderers',
  'peak Chromium',
  'peak JS heap',
];
const rows: string[][] = [];
const add = (run: Run, baseline?: Run) =>
  rows.push([
    run.label,
    mib(run.bytes),
    `${(run.ms / 1000).toFixed(2)} s`,
    rate(run.bytes, run.ms),
    baseline ? `${(baseline.ms / run.ms).toFixed(2)}` : '1.00',
    run.peakPageBytes ? `${mib(run.peakPageBytes)} (${(run.peakPageBytes / 1e6).toFixed(0)} MB)` : '',
    run.peakRendererBytes ? mib(run.peakRendererBytes) : '',
    run.peakPssBytes ? mib(run.peakPssBytes) : '',
    run.peakHeapBytes ? mib(run.peakHeapBytes) : '',
  ]);
/**
 * One small upload through the API before anything is measured: the twin loads a domain's handlers on its first
 * request (a Lambda cold start), which would otherwise count against whichever upload comes first.
 */
async function warmUp(): Promise<void> {
  const dataset = await request<{ id: string }>('POST', '/api/datasets', {
    mrn: 'BENCH-WARM-UP',
    studyType: 'RESEARCH',
    urgency: 'ROUTINE',
    studyDescription: 'Upload benchmark warm-up',
    clinicalIndication: 'Benchmark',
    orderingPhysician: 'Dr Bench',
    department: 'Radiology',
    patientConsent: true,
    hipaaDisclosure: true,
  });
  const paths = readdirSync(join(studies[0]!.folder, 'series-01')).slice(0, 3);
  await uploadDataset({
    api: { baseUrl: config.apiBaseUrl, getToken: async () => tokens.idToken },
    datasetId: dataset.id,
    salt: 'warm-up',
    files: paths.map((name, i) => {
      const path = join(studies[0]!.folder, 'series-01', name);
      return diskUploadSource(path, `warm-up-${i}`, statSync(path).size);
    }),
  });
}

let exitCode = 0;
try {
  await warmUp();
  for (const study of values['skip-node'] ? [] : studies) {
    note(`${study.files} files, ${mib(study.bytes)}: Node`);
    const put = await nodeSinglePut(study);
    add(put);
    add(await iwsStudyUpload(study), put);
  }
  if (!values['skip-browser']) {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
    for (const study of studies) {
      note(`${study.files} files, ${mib(study.bytes)}: Chromium`);
      const { browser, page } = await launch();
      try {
        if (values['discovery-only']) {
          await browserWizard(browser, page, study);
          continue;
        }
        const put = await browserSinglePut(browser, page, study);
        add(put);
        const wizard = await browserWizard(browser, page, study);
        if (wizard) add(wizard, put);
      } finally {
        await browser.close();
      }
    }
  }
  say(`Upload throughput on the twin (loopback), ${new Date().toISOString()}`);
  say(formatTable(HEADER, rows));
  for (const d of discoveryPeaks)
    say(
      `Wizard file discovery of the ${d.files}-file study (before the upload): peak page ${mib(d.peakPageBytes)} (${(d.peakPageBytes / 1e6).toFixed(0)} MB), renderers ${mib(d.peakRendererBytes)}, all Chromium ${mib(d.peakPssBytes)}, JS heap ${mib(d.peakHeapBytes)}`,
    );
  say(
    "Memory (PSS): the page's own renderer process (the tab and its workers, what the 300 MB target is read against), every renderer (with Chromium's own WebUI and spare renderers), every Chromium process; and the page's JS heap (CDP).",
  );
  say(
    '"vs one PUT": the single PUT\'s time over this upload\'s time, for the same bytes from the same client (aim ≥ 0.33).',
  );
} catch (error) {
  exitCode = 1;
  note(String((error as Error).stack ?? error));
  if (rows.length > 0) say(formatTable(HEADER, rows));
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
