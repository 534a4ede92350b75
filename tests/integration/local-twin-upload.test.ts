import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  archiveLayout,
  archivePartBytes,
  archivePartCount,
  MIN_ARCHIVE_PART_BYTES,
} from '#shared/domain/uploads/study-archive.ts';
import { uploadDataset, UploadFailedError, type OverallProgress, type UploadSource } from '#shared/client/index.ts';
import { diskUploadSource } from '#cli/commands/upload.ts';
import { apiFetch, REPO_ROOT, signIn, TEST_DEMO_PASSWORD, useTwinOnTempDir } from '#tests/helpers/local-stack.ts';
import { runNode } from '#tests/helpers/run-node.ts';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';

/**
 * The shared upload client against the twin (real handlers, real s3rver multipart): resume sends only the parts the
 * server does not hold, failed part PUTs are retried, progress adds up, and a part that never goes through fails cleanly.
 */
const T1_DIR = sharedDataPath('dicom/ge-t1-ir-spgr/dicom');
const MEMBER = 'member@northside.demo.local';

function dicomSources(count: number): UploadSource[] {
  return readdirSync(T1_DIR)
    .filter((n) => n.endsWith('.dcm'))
    .sort()
    .slice(0, count)
    .map((name) => diskUploadSource(join(T1_DIR, name), `t1/${name}`, statSync(join(T1_DIR, name)).size));
}

/** A non-DICOM file over two part sizes: with the files after it, the archive goes in three parts, the last one short. */
function bigSource(): UploadSource {
  const sizeBytes = 2 * MIN_ARCHIVE_PART_BYTES + 12_345;
  return {
    path: 'notes/scanner-export.bin',
    sizeBytes,
    async read(start: number, end: number) {
      const bytes = new Uint8Array(end - start);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (start + i) % 251;
      return bytes;
    },
  };
}

type Put = { url: string; ok: boolean };

/** fetch that records part PUTs, optionally fails some before they reach the store, and can abort after N. */
function recordingFetch(
  options: { failFirstTry?: boolean; abortAfter?: number; controller?: AbortController; alwaysFail?: boolean } = {},
) {
  const puts: Put[] = [];
  const tried = new Set<string>();
  let succeeded = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method === 'PUT') {
      const part = url.replace(/X-Amz-[^&]*&?/g, '');
      if (options.alwaysFail || (options.failFirstTry && !tried.has(part))) {
        tried.add(part);
        puts.push({ url, ok: false });
        throw new TypeError('fetch failed');
      }
      const response = await fetch(input, init);
      puts.push({ url, ok: response.ok });
      if (response.ok && ++succeeded === options.abortAfter) options.controller?.abort(new Error('closed tab'));
      return response;
    }
    return fetch(input, init);
  };
  return { fetch: wrapped, puts };
}

async function createDataset(url: string, token: string, mrn: string): Promise<string> {
  const response = await apiFetch(url, token, '/api/datasets', {
    method: 'POST',
    body: {
      mrn,
      studyType: 'RESEARCH',
      urgency: 'ROUTINE',
      studyDescription: 'Upload client test',
      clinicalIndication: 'Integration test',
      orderingPhysician: 'Dr Test',
      department: 'Radiology',
      patientConsent: true,
      hipaaDisclosure: true,
    },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('shared upload client against the twin', () => {
  const twin = useTwinOnTempDir();
  let token: string;

  beforeAll(async () => {
    token = await signIn(twin.stack.url, MEMBER);
  });

  it('resumes an interrupted upload without resending stored parts, then completes and starts the pipeline', async () => {
    const datasetId = await createDataset(twin.stack.url, token, 'UPLOAD-RESUME-1');
    const files = [bigSource(), ...dicomSources(8)];
    const archiveBytes = archiveLayout(files.map((f) => f.sizeBytes)).totalBytes;
    const totalParts = archivePartCount(archiveBytes, archivePartBytes(archiveBytes));
    expect(totalParts).toBe(3);
    const api = { baseUrl: twin.stack.config.apiBaseUrl as string, getToken: async () => token };

    const controller = new AbortController();
    const first = recordingFetch({ abortAfter: 2, controller });
    await expect(
      uploadDataset({
        api: { ...api, fetch: first.fetch },
        datasetId,
        salt: datasetId,
        files,
        concurrency: 1,
        signal: controller.signal,
      }),
    ).rejects.toThrow('closed tab');
    const sentBefore = first.puts.filter((p) => p.ok).length;
    expect(sentBefore).toBe(2);

    const second = recordingFetch();
    const overall: OverallProgress[] = [];
    const fileDone = new Set<number>();
    const result = await uploadDataset({
      api: { ...api, fetch: second.fetch },
      datasetId,
      salt: datasetId,
      files,
      concurrency: 3,
      onProgress: (p) => overall.push(p),
      onFileProgress: (p) => {
        if (p.status === 'COMPLETE') fileDone.add(p.fileIndex);
      },
    });
    expect(second.puts).toHaveLength(totalParts - sentBefore);
    expect(result.progress).toMatchObject({
      partsSkipped: sentBefore,
      partsSent: totalParts - sentBefore,
      filesComplete: files.length,
    });
    const totalBytes = files.reduce((s, f) => s + f.sizeBytes, 0);
    expect(overall.at(-1)).toMatchObject({ uploadedBytes: totalBytes, totalBytes });
    expect(overall.map((p) => p.uploadedBytes)).toEqual([...overall.map((p) => p.uploadedBytes)].sort((a, b) => a - b));
    expect(fileDone.size).toBe(files.length);
    expect((result.completion as { id: string }).id).toBe(datasetId);

    const dataset = (await (await apiFetch(twin.stack.url, token, `/api/datasets/${datasetId}`)).json()) as {
      status: string;
    };
    expect(['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING', 'COMPLETE']).toContain(dataset.status);
  }, 120_000);

  it('retries part PUTs that fail on the network', async () => {
    const datasetId = await createDataset(twin.stack.url, token, 'UPLOAD-RETRY-1');
    const files = dicomSources(5);
    const flaky = recordingFetch({ failFirstTry: true });
    const result = await uploadDataset({
      api: { baseUrl: twin.stack.url, getToken: async () => token, fetch: flaky.fetch },
      datasetId,
      salt: datasetId,
      files,
      retryDelayMs: 10,
    });
    // Five files are one part of the archive: it fails once, then goes through.
    expect(flaky.puts.filter((p) => !p.ok)).toHaveLength(1);
    expect(flaky.puts.filter((p) => p.ok)).toHaveLength(1);
    expect(result.progress).toMatchObject({ partsSent: 1, filesComplete: 5 });
  }, 60_000);

  it('gives up on a part that never goes through, with a clear error', async () => {
    const datasetId = await createDataset(twin.stack.url, token, 'UPLOAD-FAIL-1');
    const broken = recordingFetch({ alwaysFail: true });
    const upload = uploadDataset({
      api: { baseUrl: twin.stack.url, getToken: async () => token, fetch: broken.fetch },
      datasetId,
      salt: datasetId,
      files: dicomSources(1),
      maxAttempts: 3,
      retryDelayMs: 5,
    });
    await expect(upload).rejects.toBeInstanceOf(UploadFailedError);
    await expect(upload).rejects.toThrow('Part 1 of 1 could not be uploaded (network error).');
    expect(broken.puts).toHaveLength(3);
  }, 60_000);

  it('restarts a crashed pipeline worker and runs its execution again to COMPLETE', async () => {
    const datasetId = await createDataset(twin.stack.url, token, 'WORKER-CRASH-1');
    await uploadDataset({
      api: { baseUrl: twin.stack.url, getToken: async () => token },
      datasetId,
      salt: datasetId,
      files: dicomSources(20),
    });
    const isOurs = (input: string) => (JSON.parse(input) as { datasetId: string }).datasetId === datasetId;
    const deadline = Date.now() + 30_000;
    while (
      !twin.stack.pipeline.executions().some((e) => isOurs(e.input) && e.status === 'RUNNING' && e.attempts > 0) ||
      !twin.stack.pipeline.workerPid()
    ) {
      if (Date.now() > deadline) throw new Error('the execution never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const crashedPid = twin.stack.pipeline.workerPid()!;
    process.kill(crashedPid, 'SIGKILL');

    let status = '';
    const finish = Date.now() + 120_000;
    while (!['COMPLETE', 'FAILED'].includes(status)) {
      if (Date.now() > finish) throw new Error(`still ${status} two minutes after the worker crash`);
      await new Promise((r) => setTimeout(r, 500));
      status = (
        (await (await apiFetch(twin.stack.url, token, `/api/datasets/${datasetId}`)).json()) as { status: string }
      ).status;
    }
    expect(status).toBe('COMPLETE');
    // The run's last step, giving back the hospital's run slot, comes after the dataset reads COMPLETE.
    const ended = Date.now() + 30_000;
    let execution = twin.stack.pipeline.executions().find((e) => isOurs(e.input))!;
    while (execution.status === 'RUNNING' && Date.now() < ended) {
      await new Promise((r) => setTimeout(r, 200));
      execution = twin.stack.pipeline.executions().find((e) => isOurs(e.input))!;
    }
    expect(execution).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(twin.stack.pipeline.workerPid()).not.toBe(crashedPid);
  }, 180_000);

  it('iws upload says why it cannot upload: wrong password, a role without upload rights, no server', async () => {
    // The twin runs in this process: the command must run asynchronously, or the twin could not answer it.
    const iws = async (password: string, ...args: string[]) => {
      const { code, stderr, stdout } = await runNode(
        [join(REPO_ROOT, 'cli/iws.mjs'), 'upload', T1_DIR, '--mrn', 'CLI-REFUSED', ...args],
        { env: { IWS_PASSWORD: password } },
      );
      return { code, stderr: stderr.trim(), stdout };
    };
    expect(await iws('Wrong-Pass-9!', '--api', twin.stack.url, '--email', MEMBER)).toEqual({
      code: 1,
      stderr: 'iws: Invalid credentials',
      stdout: '',
    });
    expect(await iws(TEST_DEMO_PASSWORD, '--api', twin.stack.url, '--email', 'guest@northside.demo.local')).toEqual({
      code: 1,
      stderr: "iws: You don't have permission to perform this action.",
      stdout: '',
    });
    expect((await iws(TEST_DEMO_PASSWORD, '--api', 'http://127.0.0.1:9', '--email', MEMBER)).stderr).toBe(
      'iws: cannot reach http://127.0.0.1:9: is the site (or npm start) running there?',
    );
    expect((await iws(TEST_DEMO_PASSWORD, '--email', MEMBER)).code).toBe(2);
  }, 60_000);
});
