import { readSeriesFileMetadata, type SeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { groupIntoSeries, type SeriesGroup } from '#shared/dicom/series.ts';
import { checkDicomHeader, firstBytesAfter, HEADER_READ } from '#shared/dicom/validate.ts';
import { FileStartReader } from '#web/features/uploads/utils/file-start-reader.ts';

/** A file the user picked, with its path inside the picked folder (or its name). */
export type PickedFile = { path: string; file: File };

type DiscoveredFile = SeriesFileMetadata & { path: string };
type RejectedFile = { path: string; sizeBytes: number; message: 'Not a DICOM file' | 'DICOM parsing failed' };

export type Discovery = {
  files: DiscoveredFile[];
  rejected: RejectedFile[];
  series: SeriesGroup[];
  totalBytes: number;
  elapsedMs: number;
};

/** docs/domain.md#uploads: files are parsed in batches of 20; the wizard pauses 50 ms between batches, the enhanced uploader 1 ms. */
const DISCOVERY_BATCH_SIZE = 20;
export const WIZARD_BATCH_PAUSE_MS = 50;
export const ENHANCED_BATCH_PAUSE_MS = 1;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads one file's header with the shared engine: its metadata, or its rejection with the wizard's message. */
async function discoverFile(
  { path, file }: PickedFile,
  reader: FileStartReader,
  firstBytes: number,
): Promise<{ discovered?: DiscoveredFile; rejected?: RejectedFile; next: number }> {
  const fileStart = reader.open(file);
  try {
    // docs/domain.md#uploads: the header alone where it tells what the whole file would.
    const check = await checkDicomHeader(file.size, fileStart.read, firstBytes);
    const next = firstBytesAfter(check, firstBytes);
    if (!check.valid) return { rejected: { path, sizeBytes: file.size, message: check.message }, next };
    try {
      return { discovered: { ...readSeriesFileMetadata(check.header, path, file.size), path }, next };
    } catch {
      // docs/error-catalogue.md#upload-and-export: a parse failure is logged (without its content) and the file skipped.
      console.warn('DICOM metadata could not be read from one file; it is skipped');
      return { rejected: { path, sizeBytes: file.size, message: 'DICOM parsing failed' }, next };
    }
  } finally {
    // The metadata holds strings only; the header's bytes go back to the reader for the next file.
    fileStart.close();
  }
}

/**
 * Reads each picked file in the browser with the shared engine (checkDicomHeader → readSeriesFileMetadata →
 * groupIntoSeries), so what the wizard shows is what the server will find. Only the bytes before a file's Pixel Data
 * are read where they are enough, into reused buffers, and the files of a batch one after another: memory stays
 * bounded by a few headers, not by the study's bytes (docs/domain.md#uploads). Nothing leaves the browser here; the
 * patient fields the engine reads are used only for grouping and are never sent or logged.
 */
export async function discoverFiles(
  picked: readonly PickedFile[],
  options: { pauseMs: number; onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
): Promise<Discovery> {
  const started = performance.now();
  const files: DiscoveredFile[] = [];
  const rejected: RejectedFile[] = [];
  const reader = new FileStartReader();
  let firstBytes = HEADER_READ.firstBytes;
  for (let start = 0; start < picked.length; start += DISCOVERY_BATCH_SIZE) {
    options.signal?.throwIfAborted();
    const batch = picked.slice(start, start + DISCOVERY_BATCH_SIZE);
    // One file at a time: reads in flight together keep their objects alive long enough for the browser to move
    // them to its long-lived heap, which grew by 40 MiB over 2,500 files that way (docs/domain.md#uploads).
    for (const one of batch) {
      const result = await discoverFile(one, reader, firstBytes);
      firstBytes = result.next;
      if (result.discovered) files.push(result.discovered);
      if (result.rejected) rejected.push(result.rejected);
    }
    options.onProgress?.(Math.min(picked.length, start + batch.length), picked.length);
    if (start + DISCOVERY_BATCH_SIZE < picked.length) await pause(options.pauseMs);
  }
  return {
    files,
    rejected,
    series: groupIntoSeries(files),
    totalBytes: files.reduce((sum, f) => sum + f.fileSize, 0),
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** What the page sends the discovery worker, and what the worker answers. */
export type DiscoveryRequest = { picked: PickedFile[]; pauseMs: number };
export type DiscoveryMessage =
  { progress: { done: number; total: number } } | { discovery: Discovery } | { failed: string };

/**
 * discoverFiles in a dedicated worker, ended when it answers (discover-files.worker.ts): the garbage of reading
 * thousands of headers goes with it instead of staying in the page through the upload (docs/domain.md#uploads).
 * Runs discoverFiles here where the browser has no workers.
 */
export function discoverFilesInWorker(
  picked: readonly PickedFile[],
  options: { pauseMs: number; onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
): Promise<Discovery> {
  if (typeof Worker === 'undefined') return discoverFiles(picked, options);
  const worker = new Worker(new URL('./discover-files.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<Discovery>((resolve, reject) => {
    const end = (settle: () => void) => {
      worker.terminate();
      options.signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => end(() => reject(options.signal?.reason));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<DiscoveryMessage>) => {
      const message = event.data;
      if ('progress' in message) options.onProgress?.(message.progress.done, message.progress.total);
      else if ('discovery' in message) end(() => resolve(message.discovery));
      else end(() => reject(new Error(message.failed)));
    };
    worker.onerror = (event) => end(() => reject(new Error(event.message || 'File discovery failed')));
    worker.postMessage({ picked: [...picked], pauseMs: options.pauseMs } satisfies DiscoveryRequest);
  });
}

/** Path of a picked file: its place in the picked folder when there is one. */
export function pickedPath(file: File): string {
  return (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
}

/** Walks dropped folders (DataTransfer entries) into files with their relative paths. */
export async function filesFromDataTransfer(items: DataTransferItemList): Promise<PickedFile[]> {
  const entries = Array.from(items)
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry?.() : null))
    .filter((e): e is FileSystemEntry => !!e);
  const out: PickedFile[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.push({ path: prefix + entry.name, file });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const entry of entries) await walk(entry, '');
  return out;
}

/** Hidden system files that pickers include with folders and that are never studies. */
export function isIgnorable(path: string): boolean {
  const name = path.split('/').pop() ?? path;
  return name.startsWith('.') || name === 'Thumbs.db' || name === 'desktop.ini';
}
