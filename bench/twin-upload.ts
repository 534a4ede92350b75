/**
 * The walking-skeleton benchmark: the local twin on a throw-away data folder, the 196-file GE T1 uploaded
 * through the API exactly as a client does (the `iws upload` command in its own process: /config.json, Cognito
 * sign-in, POST /api/datasets, presigned multipart uploads through the shared upload client), then the pipeline's
 * stages timed from the dataset's audit history (GET /api/datasets/{id}/history) and from the executor's own timing of
 * each task, printed side by side with the same stages run by `iws process` (in this process, on the same folder),
 * with two ratios (created → COMPLETE against iws process + upload; upload completed → COMPLETE against
 * iws process), next to the same conversion done
 * by the native Debian dcm2niix and by the npm WASM build in the same run (after the pipeline, so they do not compete
 * with it for the CPU). Machines are noisy: compare the ratios, not the seconds.
 * Not a test: it prints, it does not assert (exit status 1 only when the dataset does not reach COMPLETE).
 * The handlers' structured logs are silenced (IWS_SILENT_LOGS) unless --verbose.
 * Run: npm run bench:twin [-- --folder <dicom folder>] [--runs N] [--timeout <seconds>] [--keep] [--verbose]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fetchRuntimeConfig, signInWithPassword } from '#cli/commands/upload.ts';
import { processFiles } from '#cli/commands/process.ts';
import type { StageState } from '#shared/domain/pipeline/stages.ts';
import { ALL_PIPELINE_TASKS } from '#shared/definitions/state-machine.ts';
import { startLocalStack } from '#infra/local/stack.ts';
import { pipelineWorkerNice } from '#infra/local/sfn.ts';
import { createApiClient } from '#shared/client/index.ts';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { loadWasmOnce, nativeConvertMs, nativeDcm2niixVersion, wasmConvert } from './lib/convert.ts';
import {
  benchProcessOptions,
  formatTable,
  GE_T1_FOLDER,
  readFolderFiles,
  listFolderFiles,
  median,
  ms,
  NATIVE_DCM2NIIX,
  ratio,
  timeAsync,
  toolPresent,
  totalBytes,
} from './lib/data.ts';
import { iwsUpload } from './lib/iws-upload.ts';
import { pipelineTimeline, type HistoryEvent } from './lib/pipeline-timeline.ts';

const MEMBER = 'member@northside.demo.local';
const TERMINAL = new Set(['COMPLETE', 'FAILED']);

const { values } = parseArgs({
  options: {
    folder: { type: 'string', default: GE_T1_FOLDER },
    runs: { type: 'string', default: '3' },
    timeout: { type: 'string', default: '1800' },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const folder = values.folder;
const runs = Math.max(1, Number(values.runs) || 3);
const timeoutMs = (Number(values.timeout) || 1800) * 1000;
const paths = listFolderFiles(folder);
const say = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

if (!values.verbose) process.env.IWS_SILENT_LOGS = '1';
const dataDir = mkdtempSync(join(tmpdir(), 'iws-bench-twin-'));
const demoPassword = `Bench-${randomBytes(9).toString('base64url')}-7a!`;
let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
let exitCode = 0;
try {
  say(
    `input: ${folder}\n${paths.length} files, ${(totalBytes(paths) / 1048576).toFixed(1)} MiB; twin data folder ${dataDir}\n`,
  );
  const startedAt = performance.now();
  const twin = await startLocalStack({ dataDir, port: 0, demoPassword, buildSite: false, quiet: true });
  stack = twin;
  const twinStartMs = performance.now() - startedAt;

  const upload = await iwsUpload({
    url: twin.url,
    folder,
    email: MEMBER,
    password: demoPassword,
    mrn: 'BENCH-1',
    description: `Benchmark upload ${new Date().toISOString()}`,
  });

  const config = await fetchRuntimeConfig(twin.url);
  const tokens = await signInWithPassword(config, MEMBER, demoPassword);
  const request = createApiClient({ baseUrl: config.apiBaseUrl, getToken: async () => tokens.idToken });
  const datasetPath = `/api/datasets/${encodeURIComponent(upload.datasetId)}`;
  let dataset = await request<Dataset>('GET', datasetPath);
  const deadline = Date.now() + timeoutMs;
  while (!TERMINAL.has(dataset.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    dataset = await request<Dataset>('GET', datasetPath);
  }
  const history = await request<{ items: HistoryEvent[] }>('GET', `${datasetPath}/history`);
  const timeline = pipelineTimeline(history.items);
  // The executor's own timing of each task: the run ends (ReleaseRunSlot) just after the dataset reads COMPLETE.
  const isOurs = (input: string) => (JSON.parse(input) as { datasetId?: string }).datasetId === upload.datasetId;
  let execution = twin.pipeline.executions().find((e) => isOurs(e.input));
  while (execution?.status === 'RUNNING' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    execution = twin.pipeline.executions().find((e) => isOurs(e.input));
  }

  // The same stages without a server, in this process, right after the pipeline: `iws process` on the same folder.
  const processOut = mkdtempSync(join(tmpdir(), 'iws-bench-process-'));
  const processMs = new Map<StageState, number>();
  const processStarted = performance.now();
  const processed = await processFiles(readFolderFiles(folder), processOut, benchProcessOptions(), (state, stageMs) =>
    processMs.set(state, stageMs),
  );
  const processTotalMs = performance.now() - processStarted;
  rmSync(processOut, { recursive: true, force: true });

  // The same conversion outside the twin, after the pipeline: native dcm2niix and the npm WASM build, interleaved.
  const withNative = toolPresent(NATIVE_DCM2NIIX);
  const wasmLoadMs = await loadWasmOnce();
  const wasmMs: number[] = [];
  const nativeMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    wasmMs.push(await timeAsync(() => wasmConvert(folder)));
    if (withNative) nativeMs.push(nativeConvertMs(folder));
  }

  say(`Twin start (dynalite, s3rver, cognito-local, executor, demo seed): ${seconds(twinStartMs)}`);
  say(
    `Upload by \`iws upload\` in its own process: ${seconds(upload.wallMs)} wall, of which ${seconds(timeline.createdAt - upload.spawnedAt)} before the dataset`,
  );
  say(
    `existed (process and tsx start-up, /config.json, sign-in) and ${seconds(upload.wallMs - (timeline.createdAt - upload.spawnedAt))} creating it and sending ${paths.length} files in multipart parts\n`,
  );
  say(`Dataset ${upload.datasetId}: ${dataset.status}${dataset.failureReason ? ` (${dataset.failureReason})` : ''}`);
  say('Stages from the audit history (time in each status until the next transition)');
  const rows: string[][] = [];
  for (const stage of timeline.stages) {
    rows.push([
      stage.status,
      seconds(stage.ms),
      `${((stage.ms / (timeline.endedAt - timeline.createdAt)) * 100).toFixed(0)}%`,
    ]);
    for (const step of stage.steps)
      rows.push([`  ${step.action} (+${seconds(step.sinceStartMs)})`, seconds(step.sincePreviousMs), '']);
  }
  const uploadWindow = timeline.stages
    .filter((stage) => stage.status === 'CREATED' || stage.status === 'UPLOADING')
    .reduce((sum, stage) => sum + stage.ms, 0);
  const pipelineMs = timeline.stages
    .filter((stage) => stage.status !== 'CREATED' && stage.status !== 'UPLOADING')
    .reduce((sum, stage) => sum + stage.ms, 0);
  const totalMs = timeline.endedAt - timeline.createdAt;
  rows.push(['upload (CREATED + UPLOADING)', seconds(uploadWindow), `${((uploadWindow / totalMs) * 100).toFixed(0)}%`]);
  rows.push([
    'pipeline (ANONYMIZING → ' + timeline.finalStatus + ')',
    seconds(pipelineMs),
    `${((pipelineMs / totalMs) * 100).toFixed(0)}%`,
  ]);
  rows.push([`total (created → ${timeline.finalStatus})`, seconds(totalMs), '100%']);
  say(formatTable(['stage, then its audited steps (+ time since the stage began)', 'duration', 'share'], rows));
  say(
    '(a step lasts from the previous audited event; a task that audits nothing, e.g. BuildSurface when it builds a mesh,',
  );
  say(" falls into the next event's time)\n");

  // Per stage, side by side: the twin's tasks as its executor timed them, and `iws process` in this process.
  const tasks = execution?.tasks ?? [];
  const uploadCompleted = timeline.stages
    .flatMap((stage) => stage.steps.map((step) => ({ ...step, at: stage.startedAt + step.sinceStartMs })))
    .find((step) => step.action === 'UPLOAD_COMPLETED')?.at;
  const firstTask = Math.min(...tasks.map((t) => t.startedAt));
  const lastTaskEnd = Math.max(...tasks.filter((t) => t.state === 'CompleteDataset').map((t) => t.startedAt + t.ms));
  const sideRows: string[][] = [];
  for (const task of ALL_PIPELINE_TASKS) {
    const runs = tasks.filter((t) => t.state === task.state);
    const inProcess = processMs.get(task.state as StageState);
    if (runs.length === 0 && inProcess === undefined) continue;
    const twinMs = runs.reduce((sum, t) => sum + t.ms, 0);
    sideRows.push([
      `${task.state}${runs.length > 1 ? ` (${runs.length} calls)` : ''}`,
      runs.length > 0 ? seconds(twinMs) : '-',
      inProcess === undefined ? '-' : seconds(inProcess),
      inProcess ? ratio(twinMs / inProcess) : '',
    ]);
  }
  const tasksMs = tasks
    .filter((t) => t.state !== 'ReleaseRunSlot' && t.startedAt < lastTaskEnd)
    .reduce((sum, t) => sum + t.ms, 0);
  const twinPipelineMs = timeline.endedAt - (uploadCompleted ?? timeline.createdAt);
  sideRows.push(['all tasks (sum)', seconds(tasksMs), seconds(processTotalMs), ratio(tasksMs / processTotalMs)]);
  if (uploadCompleted !== undefined) {
    sideRows.push(['  upload completed → first task (queue, executor)', seconds(firstTask - uploadCompleted), '', '']);
  }
  sideRows.push(['  between tasks (executor, state transitions)', seconds(lastTaskEnd - firstTask - tasksMs), '', '']);
  sideRows.push([
    'upload completed → COMPLETE',
    seconds(twinPipelineMs),
    seconds(processTotalMs),
    ratio(twinPipelineMs / processTotalMs),
  ]);
  say(`Per stage: the twin's tasks (timed by its executor) and \`iws process\` on the same folder, same run`);
  say(formatTable(['stage', 'twin', 'iws process', 'twin / iws'], sideRows));
  say(
    `(iws process: ${processed.outcome.ok ? 'ok' : `failed in ${processed.outcome.state}`}, ${processed.series.length} series, ${processed.assets.length} assets)`,
  );
  const totalTarget = processTotalMs + upload.wallMs;
  say(
    `Created → ${timeline.finalStatus} ${seconds(timeline.endedAt - timeline.createdAt)} against iws process + upload ${seconds(processTotalMs)} + ${seconds(upload.wallMs)} = ${seconds(totalTarget)}: ${ratio((timeline.endedAt - timeline.createdAt) / totalTarget)} (target under 1.50x)`,
  );
  say(
    `Pipeline overhead: upload completed → ${timeline.finalStatus} ${seconds(twinPipelineMs)} against iws process ${seconds(processTotalMs)}: ${ratio(twinPipelineMs / processTotalMs)} (target under 1.50x)\n`,
  );
  say(
    `Machine load average (1, 5, 15 min): ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}; pipeline worker at nice ${pipelineWorkerNice()}\n`,
  );

  const processing = timeline.stages.find((stage) => stage.status === 'PROCESSING');
  const convertStep = processing?.steps.find((step) => step.action === 'SERIES_CONVERTED');
  const wasmMedian = median(wasmMs);
  const nativeMedian = withNative ? median(nativeMs) : undefined;
  say(`The same conversion outside the twin (${paths.length} files → NIfTI), median of ${runs} interleaved runs`);
  say(
    formatTable(
      ['conversion', 'median', 'runs (ms)'],
      [
        [
          'npm @niivue/dcm2niix WASM (convertToNifti, reads files)',
          ms(wasmMedian),
          wasmMs.map((t) => t.toFixed(0)).join(', '),
        ],
        ['  WASM module load, once per process (not in the runs)', ms(wasmLoadMs), ''],
        withNative
          ? [
              `native Debian dcm2niix ${nativeDcm2niixVersion()} (-z y, pigz)`,
              ms(nativeMedian!),
              nativeMs.map((t) => t.toFixed(0)).join(', '),
            ]
          : ['native Debian dcm2niix', `not installed at ${NATIVE_DCM2NIIX} (apt-get install dcm2niix)`, ''],
      ],
    ),
  );
  const ratioRows: string[][] = [];
  const against = (label: string, value: number | undefined) => {
    if (value === undefined) return;
    ratioRows.push([
      label,
      seconds(value),
      ratio(value / wasmMedian),
      nativeMedian === undefined ? 'not installed' : ratio(value / nativeMedian),
    ]);
  };
  against('twin ConvertSeries (NIfTI + thumbnail, S3 in and out)', convertStep?.sinceStartMs);
  against('PROCESSING stage (volume, thumbnail, surface, tracts, report)', processing?.ms);
  against(`pipeline (ANONYMIZING → ${timeline.finalStatus})`, pipelineMs);
  against('total (created → end, upload included)', totalMs);
  say('\nRatios to the same conversion outside the twin (same run)');
  say(formatTable(['twin figure', 'time', '/ WASM', '/ native dcm2niix'], ratioRows));
  if (dataset.status !== 'COMPLETE') {
    process.stderr.write(
      `The dataset did not reach COMPLETE (${dataset.status}${TERMINAL.has(dataset.status) ? '' : `, still running after ${values.timeout} s`}).\n`,
    );
    exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitCode = 1;
} finally {
  await stack?.stop();
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  else say(`\ndata folder kept: ${dataDir}`);
}
process.exit(exitCode);
