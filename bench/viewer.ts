/**
 * The viewer's time to the first image, in headless Chromium with software WebGL (SwiftShader, as on hospital desktops
 * in VMs): from navigation to the first slice drawn, and to fully interactive (every layer loaded and a frame drawn
 * after it), for three volumes: the shared GE T1 converted by the engine, a 4D diffusion series (the shared Philips
 * DTI, converted by the engine) and a large generated volume (512×512×300 int16). The reference is NiiVue's own
 * minimal page (a static page, the NiiVue bundle from node_modules, default options) loading the same file in the
 * same run, interleaved with the site's runs. Usage: npm run bench:viewer -- [--runs 2] [--cases t1,dwi,large]
 */
import { mkdirSync, existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { convertToNifti } from '#shared/dicom/convert.ts';
import { ensureSiteBuilt, CHROMIUM_PATH, signInThroughSite } from '#tests/e2e/browser.ts';
import { startTestStack, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';
import { phantomNifti } from '#tests/helpers/nifti-phantom.ts';
import { plantViewerStudy, VIEWER_MEMBER } from '#tests/helpers/viewer-study.ts';
import { listFiles } from '#tests/helpers/shared-data.ts';
import { formatTable, GE_T1_FOLDER, median, REPO_ROOT, SHARED_DATA } from './lib/data.ts';

process.env.IWS_SILENT_LOGS ??= '1';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '2' },
    cases: { type: 'string', default: 't1,dwi,large' },
    timeout: { type: 'string', default: '240' },
    /** Records a CPU profile of each case's first site run and prints where its main thread spent its time. */
    profile: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const TIMEOUT_MS = Number(args.timeout) * 1000;

type Case = { id: string; label: string; classifiedType: string; file: string; describe: string };

const WORK = join(tmpdir(), 'iws-bench-viewer');
const REFERENCE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>NiiVue reference</title>
<style>html,body{margin:0;height:100%;background:#000}canvas{width:100%;height:100%;display:block}</style></head>
<body><canvas id="gl1"></canvas>
<script type="module">
import { Niivue } from '/niivue.min.js';
const volume = new URLSearchParams(location.search).get('volume');
const nv = new Niivue();
// As the site does (niivue-viewer.tsx): a 1-pixel read after the draw waits for the pixels, then the mark.
const drawn = (name) => {
  nv.drawScene();
  nv.gl.readPixels(0, 0, 1, 1, nv.gl.RGBA, nv.gl.UNSIGNED_BYTE, new Uint8Array(4));
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
};
nv.onImageLoaded = () => drawn('iws-viewer-first-slice');
await nv.attachTo('gl1');
await nv.loadVolumes([{ url: '/volumes/' + volume }]);
drawn('iws-viewer-interactive');
</script></body></html>`;

/** The engine's conversion of a shared DICOM folder (its files at any depth): its largest NIfTI. */
async function convertShared(folder: string): Promise<Uint8Array> {
  const files = listFiles(folder).map((path) => ({
    name: relative(folder, path),
    bytes: new Uint8Array(readFileSync(path)),
  }));
  const outputs = await convertToNifti(files);
  const largest = outputs.sort((a, b) => b.nifti.byteLength - a.nifti.byteLength)[0];
  if (!largest) throw new Error(`No NIfTI from ${folder}`);
  return largest.nifti;
}

/** The three volumes, written once into the work folder and reused by later runs of the bench. */
async function prepareCases(wanted: string[]): Promise<Case[]> {
  mkdirSync(WORK, { recursive: true });
  const all: (Omit<Case, 'file'> & { make(): Promise<Uint8Array> | Uint8Array })[] = [
    {
      id: 't1',
      label: 'GE T1 IR-SPGR (NIfTI)',
      classifiedType: 'T1',
      describe: 'shared GE T1, 196 DICOM files converted by the engine',
      make: () => convertShared(GE_T1_FOLDER),
    },
    {
      id: 'dwi',
      label: 'Philips DTI b2000 (NIfTI)',
      classifiedType: 'DTI',
      describe: 'shared Philips DTI, 680 DICOM files converted by the engine (4D)',
      make: () => convertShared(join(SHARED_DATA, 'dicom/philips-dti-b2000/dicom')),
    },
    {
      id: 'large',
      label: 'Large generated volume (NIfTI)',
      classifiedType: 'T1',
      describe: 'generated phantom 512×512×300 int16 (tests/helpers/nifti-phantom.ts)',
      make: () => phantomNifti({ dims: [512, 512, 300], voxelMm: [0.5, 0.5, 0.6], contrast: 'T1', level: 1 }),
    },
  ];
  const cases: Case[] = [];
  for (const c of all.filter((c) => wanted.includes(c.id))) {
    const file = join(WORK, `${c.id}.nii.gz`);
    if (!existsSync(file)) {
      process.stdout.write(`preparing ${c.id} (${c.describe})…\n`);
      writeFileSync(file, await c.make());
    }
    cases.push({ id: c.id, label: c.label, classifiedType: c.classifiedType, file, describe: c.describe });
  }
  return cases;
}

/** NiiVue's minimal page and the volumes, on a port of its own. */
async function startReferenceServer(cases: Case[]): Promise<{ url: string; server: Server }> {
  const bundle = readFileSync(join(REPO_ROOT, 'node_modules/@niivue/niivue/dist/index.js'));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(REFERENCE_PAGE);
    } else if (path === '/niivue.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else {
      const c = cases.find((c) => path === `/volumes/${c.id}.nii.gz`);
      if (!c) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(c.file));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('reference server has no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; hitCount?: number };

/** The functions with the most self time in a CPU profile (CDP Profiler.stop), as "name (file) seconds". */
function topFunctions(
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] },
  count = 12,
): string[] {
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const file = node.callFrame.url.split('/').pop() ?? '';
    const key = `${node.callFrame.functionName || '(anonymous)'} (${file})`;
    byName.set(key, (byName.get(key) ?? 0) + (byNode.get(node.id) ?? 0));
  }
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${(micros / 1e6).toFixed(2)} s  ${name}`);
}

type Timing = { firstMs: number; interactiveMs: number } | { failed: string };

/** Navigates and waits for the interactive mark; both marks are read from the page's own timeline. */
async function measure(page: Page, url: string): Promise<Timing> {
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () =>
        performance.getEntriesByName('iws-viewer-interactive').length > 0 ||
        !!document.querySelector('[data-testid="viewer-error"]'),
      undefined,
      { timeout: TIMEOUT_MS, polling: 100 },
    );
    const marks = await page.evaluate(() => ({
      steps: performance
        .getEntriesByType('mark')
        .map((m) => `${m.name.replace('iws-viewer-', '')} ${(m.startTime / 1000).toFixed(1)}`)
        .join(', '),
      requests: performance
        .getEntriesByType('resource')
        .filter((r) => /\/api\/|\.js$|nii/.test(r.name))
        .map(
          (r) =>
            `${new URL(r.name).pathname.split('/').slice(-2).join('/').slice(0, 40)} ${(r.startTime / 1000).toFixed(1)}-${((r as PerformanceResourceTiming).responseEnd / 1000).toFixed(1)}`,
        )
        .join(', '),
      first: performance.getEntriesByName('iws-viewer-first-slice')[0]?.startTime,
      interactive: performance.getEntriesByName('iws-viewer-interactive')[0]?.startTime,
      error: document.querySelector('[data-testid="viewer-error"]')?.textContent,
    }));
    process.stdout.write(`  ${url.slice(0, 60)}: ${marks.steps}\n`);
    if (args.profile) process.stdout.write(`    requests: ${marks.requests}\n`);
    if (marks.error || marks.interactive === undefined) return { failed: marks.error ?? 'no interactive mark' };
    return { firstMs: marks.first ?? marks.interactive, interactiveMs: marks.interactive };
  } catch (e) {
    return { failed: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
}

const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

async function main() {
  const cases = await prepareCases(args.cases.split(','));
  await ensureSiteBuilt();
  const stack = await startTestStack({ buildSite: false });
  const reference = await startReferenceServer(cases);
  const profile = mkdtempSync(join(tmpdir(), 'iws-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1400, height: 900 },
    // Software WebGL as a desktop without a GPU has it: the GPU off, SwiftShader drawing.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--enable-unsafe-swiftshader',
    ],
  });
  const loads: number[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
    await signInThroughSite(page, stack.url, VIEWER_MEMBER, TEST_DEMO_PASSWORD, { remember: true });
    const datasets = new Map<string, string>();
    for (const c of cases)
      datasets.set(
        c.id,
        await plantViewerStudy(stack, `Viewer bench ${c.id}`, [
          { id: `bench-${c.id}`, label: c.label, classifiedType: c.classifiedType, nifti: readFileSync(c.file) },
        ]),
      );
    const rows: string[][] = [];
    for (const c of cases) {
      const site: Timing[] = [];
      const ref: Timing[] = [];
      // Interleaved, so a change in the machine's load falls on both.
      for (let run = 0; run < RUNS; run++) {
        const cdp = args.profile && run === 0 ? await page.context().newCDPSession(page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.start');
        }
        site.push(await measure(page, `${stack.url}/visualizer/${datasets.get(c.id)}`));
        if (cdp) {
          const { profile } = await cdp.send('Profiler.stop');
          process.stdout.write(
            `  main thread of the site's ${c.id} run, most self time:\n    ${topFunctions(profile as never).join('\n    ')}\n`,
          );
          await cdp.detach();
        }
        loads.push(loadavg()[0]!);
        ref.push(await measure(page, `${reference.url}/?volume=${c.id}.nii.gz`));
        loads.push(loadavg()[0]!);
        process.stdout.write(
          `${c.id} run ${run + 1}: site ${JSON.stringify(site.at(-1))} reference ${JSON.stringify(ref.at(-1))}\n`,
        );
      }
      const ok = (timings: Timing[]) =>
        timings.filter((t): t is { firstMs: number; interactiveMs: number } => !('failed' in t));
      const [s, r] = [ok(site), ok(ref)];
      const cell = (values: number[]) => (values.length ? seconds(median(values)) : 'failed');
      const ratioCell = (a: number[], b: number[]) =>
        a.length && b.length ? `${(median(a) / median(b)).toFixed(2)}x` : '-';
      const sFirst = s.map((t) => t.firstMs);
      const rFirst = r.map((t) => t.firstMs);
      const sInt = s.map((t) => t.interactiveMs);
      const rInt = r.map((t) => t.interactiveMs);
      rows.push([
        `${c.id} (${(readFileSync(c.file).byteLength / 1024 / 1024).toFixed(1)} MB)`,
        cell(sFirst),
        cell(rFirst),
        ratioCell(sFirst, rFirst),
        cell(sInt),
        cell(rInt),
        ratioCell(sInt, rInt),
      ]);
    }
    const table = formatTable(
      [
        'volume',
        'site first slice',
        'NiiVue page first',
        'site/ref',
        'site interactive',
        'NiiVue page interactive',
        'site/ref',
      ],
      rows,
    );
    process.stdout.write(`\n${cases.map((c) => `${c.id}: ${c.describe}`).join('\n')}\n`);
    process.stdout.write(
      `median of ${RUNS} runs, navigation to mark; load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}\n\n${table}\n`,
    );
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
    reference.server.close();
    await stack.dispose();
  }
}

await main();
