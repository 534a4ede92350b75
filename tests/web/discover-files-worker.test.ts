import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import {
  discoverFiles,
  discoverFilesInWorker,
  type DiscoveryMessage,
  type DiscoveryRequest,
  type PickedFile,
} from '#web/features/uploads/utils/discover-files.ts';

type Scope = {
  onmessage: ((event: { data: DiscoveryRequest }) => void) | null;
  postMessage(m: DiscoveryMessage): void;
};

/** A stand-in for the browser's Worker: the worker module runs in this thread, messages pass as events. */
function bridgeWorker() {
  const scope: Scope = { onmessage: null, postMessage: () => undefined };
  const made: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((event: { data: DiscoveryMessage }) => void) | null = null;
    onerror: ((event: { message: string }) => void) | null = null;
    terminated = false;
    constructor() {
      made.push(this);
      scope.postMessage = (data) => setTimeout(() => this.onmessage?.({ data }));
    }
    postMessage(data: DiscoveryRequest) {
      setTimeout(() => scope.onmessage?.({ data }));
    }
    terminate() {
      this.terminated = true;
    }
  }
  vi.stubGlobal('self', scope);
  vi.stubGlobal('Worker', FakeWorker);
  return { made };
}

function picked(): PickedFile[] {
  const dir = join(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom');
  const names = readdirSync(dir).sort().slice(0, 25);
  return [
    ...names.map((name) => ({ path: `study/${name}`, file: new File([readFileSync(join(dir, name))], name) })),
    { path: 'study/notes.txt', file: new File(['not an image'], 'notes.txt') },
  ];
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('discovery in a dedicated worker', () => {
  it("answers the in-page discovery's result with its progress, and the worker is ended", async () => {
    // Prepare
    const { made } = bridgeWorker();
    await import('#web/features/uploads/utils/discover-files.worker.ts');
    const files = picked();
    const progress: number[] = [];
    // Act
    const inWorker = await discoverFilesInWorker(files, { pauseMs: 0, onProgress: (done) => progress.push(done) });
    const inPage = await discoverFiles(files, { pauseMs: 0 });
    // Assess
    expect(progress).toEqual([20, 26]);
    expect({ ...inWorker, elapsedMs: 0 }).toEqual({ ...inPage, elapsedMs: 0 });
    expect(inWorker.rejected).toEqual([{ path: 'study/notes.txt', sizeBytes: 12, message: 'Not a DICOM file' }]);
    expect(made).toHaveLength(1);
    expect(made[0]!.terminated).toBe(true);
  });

  it('ends the worker when the discovery is cancelled', async () => {
    const { made } = bridgeWorker();
    const controller = new AbortController();
    const discovery = discoverFilesInWorker(picked(), { pauseMs: 0, signal: controller.signal });
    controller.abort(new Error('cancelled'));
    await expect(discovery).rejects.toThrow('cancelled');
    expect(made[0]!.terminated).toBe(true);
  });
});
