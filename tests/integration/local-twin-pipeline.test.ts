import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '#infra/local/sfn.ts';
import { uploadDataset } from '#shared/client/index.ts';
import { diskUploadSource } from '#cli/commands/upload.ts';
import { apiFetch, REPO_ROOT, signIn, TEST_DEMO_PASSWORD, useTwinOnTempDir } from '#tests/helpers/local-stack.ts';
import { runNode, type NodeRun } from '#tests/helpers/run-node.ts';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';

/**
 * The twin running the real pipeline: `iws upload --wait` of a whole GE T1 study, and a twin stopped in the middle of
 * a pipeline run whose dataset still finishes after the next start (the execution is resumed from the data folder).
 */
const T1_DIR = sharedDataPath('dicom/ge-t1-ir-spgr/dicom');
const MEMBER = 'member@northside.demo.local';

type Dataset = { id: string; status: string; failureReason?: string; seriesCount?: number };

function runIws(args: string[], timeoutMs: number): Promise<NodeRun> {
  return runNode([join(REPO_ROOT, 'cli/iws.mjs'), ...args], {
    timeoutMs,
    what: 'iws upload',
    env: { IWS_PASSWORD: TEST_DEMO_PASSWORD },
  });
}

async function getDataset(url: string, token: string, id: string): Promise<Dataset> {
  const response = await apiFetch(url, token, `/api/datasets/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Dataset;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function executions(dataDir: string): ExecutionRecord[] {
  const dir = join(dataDir, 'sfn');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ExecutionRecord);
}

const patientContext = {
  mrn: 'TWIN-RESTART-1',
  studyType: 'RESEARCH',
  urgency: 'ROUTINE',
  studyDescription: 'Twin restart test',
  clinicalIndication: 'Integration test',
  orderingPhysician: 'Dr Test',
  department: 'Radiology',
  patientConsent: true,
  hipaaDisclosure: true,
};

describe('local twin pipeline', () => {
  const twin = useTwinOnTempDir();

  it('iws upload --wait takes the GE T1 study through the API to COMPLETE', async () => {
    const result = await runIws(
      [
        'upload',
        T1_DIR,
        '--api',
        twin.stack.url,
        '--email',
        MEMBER,
        '--wait',
        '--timeout',
        '240',
        '--mrn',
        'TWIN-CLI-1',
      ],
      280_000,
    );
    expect(result.stderr).toContain('uploading 196 files');
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout.trim()) as { datasetId: string; status: string };
    expect(printed).toEqual({ datasetId: expect.any(String), status: 'COMPLETE' });

    const token = await signIn(twin.stack.url, MEMBER);
    const dataset = await getDataset(twin.stack.url, token, printed.datasetId);
    expect(dataset.status).toBe('COMPLETE');
    const series = (await (
      await apiFetch(twin.stack.url, token, `/api/datasets/${printed.datasetId}/series`)
    ).json()) as { items?: unknown[] } | unknown[];
    const seriesList = Array.isArray(series) ? series : (series.items ?? []);
    expect(seriesList.length).toBe(1);
    const assets = (await (
      await apiFetch(twin.stack.url, token, `/api/datasets/${printed.datasetId}/assets`)
    ).json()) as { items?: { type: string }[] } | { type: string }[];
    const assetTypes = (Array.isArray(assets) ? assets : (assets.items ?? [])).map((a) => a.type);
    expect(assetTypes).toEqual(expect.arrayContaining(['VOLUME', 'THUMBNAIL', 'REPORT']));
  }, 300_000);

  it('a twin stopped mid-pipeline resumes the execution at the next start and the dataset finishes', async () => {
    let token = await signIn(twin.stack.url, MEMBER);
    const created = await apiFetch(twin.stack.url, token, '/api/datasets', { method: 'POST', body: patientContext });
    expect(created.status).toBe(201);
    const datasetId = ((await created.json()) as Dataset).id;
    // 30 slices of the T1: a real volume, so every stage has work to do.
    const names = readdirSync(T1_DIR)
      .filter((n) => n.endsWith('.dcm'))
      .sort()
      .slice(0, 30);
    await uploadDataset({
      api: { baseUrl: twin.stack.url, getToken: async () => token },
      datasetId,
      salt: datasetId,
      files: names.map((name) => diskUploadSource(join(T1_DIR, name), name, statSync(join(T1_DIR, name)).size)),
    });

    // Stop the moment the pipeline is inside a stage (the worker process dies with it, as in a crash).
    const mid = await waitFor(
      async () => {
        const status = (await getDataset(twin.stack.url, token, datasetId)).status;
        return ['ANONYMIZING', 'CLASSIFYING', 'PROCESSING'].includes(status) ? status : undefined;
      },
      60_000,
      'the pipeline to start',
    );
    await twin.stack.stop();
    const running = executions(twin.dataDir).filter(
      (e) => e.status === 'RUNNING' && JSON.parse(e.input).datasetId === datasetId,
    );
    expect(running, `stopped at ${mid} but no execution was left RUNNING`).toHaveLength(1);

    const restartedAt = Date.now();
    await twin.restart();
    token = await signIn(twin.stack.url, MEMBER);
    let final = await waitFor(
      async () => {
        const dataset = await getDataset(twin.stack.url, token, datasetId);
        return ['COMPLETE', 'FAILED'].includes(dataset.status) ? dataset : undefined;
      },
      240_000,
      'the resumed pipeline to finish',
    );
    if (final.status === 'FAILED') {
      // A stage that cannot repeat its work must at least leave a reason and accept a retry.
      expect(final.failureReason).toBeTruthy();
      expect(
        (await apiFetch(twin.stack.url, token, `/api/datasets/${datasetId}/retry`, { method: 'POST' })).status,
      ).toBeLessThan(300);
      final = await waitFor(
        async () => {
          const dataset = await getDataset(twin.stack.url, token, datasetId);
          return ['COMPLETE', 'FAILED'].includes(dataset.status) ? dataset : undefined;
        },
        240_000,
        'the retried pipeline to finish',
      );
    }
    expect(final.status, final.failureReason).toBe('COMPLETE');
    // Nothing else runs executions: the one left RUNNING at the stop is finished by the restarted twin (its last
    // step, giving back the hospital's run slot, comes after the dataset reads COMPLETE).
    const resumed = await waitFor(
      async () => {
        const execution = executions(twin.dataDir).find((e) => e.executionArn === running[0]!.executionArn)!;
        return execution.status === 'RUNNING' ? undefined : execution;
      },
      30_000,
      'the resumed execution to end',
    );
    expect(resumed.stopDate).toBeGreaterThan(restartedAt);
  }, 360_000);
});
