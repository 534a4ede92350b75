import { uploadKeys } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { readManifest } from './manifest.ts';
import { unpackArchive } from './study-archive.ts';

/**
 * Archives are read in ranged GETs of this size, the next one already on its way while one is unpacked: memory holds
 * two of them plus the files being worked on.
 */
export const ARCHIVE_READ_BYTES = 16 * 1024 * 1024;

/** One raw file of a dataset, by the index its upload gave it. */
export type RawStudyFile = { fileIndex: number; bytes: Uint8Array };

async function* rangedChunks(
  objects: ObjectStore,
  key: string,
  size: number,
  chunkBytes: number,
): AsyncGenerator<Uint8Array> {
  const read = (start: number) => objects.getRange('uploads', key, start, Math.min(size, start + chunkBytes));
  let next = size > 0 ? read(0) : undefined;
  for (let start = 0; next; start += chunkBytes) {
    const current = next;
    next = start + chunkBytes < size ? read(start + chunkBytes) : undefined;
    // A read ahead that is never awaited (the reader stopped) must not surface as an unhandled rejection.
    next?.catch(() => undefined);
    yield await current;
  }
}

/**
 * The raw input of a dataset's de-identification (docs/pipeline.md#de-identify): the files of its packed uploads
 * (`raw/archive/<sessionId>.tar`, unpacked by streaming ranged GETs and checked against the session's manifest) and
 * any file stored on its own (`raw/<fileIndex>`, as `iws process` writes them), one at a time, in index order.
 * `empty` is true when the dataset has no raw object at all (a retry after the raw uploads were removed).
 */
export async function readStudyInput(
  objects: ObjectStore,
  hospitalId: string,
  datasetId: string,
  options: { chunkBytes?: number } = {},
): Promise<{ empty: boolean; files(): AsyncGenerator<RawStudyFile> }> {
  const listed = await objects.list('uploads', uploadKeys.prefix(hospitalId, datasetId));
  const archivePrefix = uploadKeys.archivePrefix(hospitalId, datasetId);
  const archives = listed.filter((o) => o.key.startsWith(archivePrefix) && o.key.endsWith('.tar'));
  const single = listed.filter((o) => /\/raw\/\d+$/.test(o.key));
  const chunkBytes = options.chunkBytes ?? ARCHIVE_READ_BYTES;
  return {
    empty: archives.length === 0 && single.length === 0,
    async *files() {
      for (const archive of archives) {
        const sessionId = archive.key.slice(archivePrefix.length, -'.tar'.length);
        const manifest = await readManifest(objects, hospitalId, datasetId, sessionId);
        yield* unpackArchive(
          rangedChunks(objects, archive.key, archive.size, chunkBytes),
          manifest.files.map((f) => f.sizeBytes),
        );
      }
      for (const object of single)
        yield {
          fileIndex: Number(object.key.slice(object.key.lastIndexOf('/') + 1)),
          bytes: await objects.get('uploads', object.key),
        };
    },
  };
}
