import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BucketName, ObjectStore } from '#shared/domain/storage.ts';

/**
 * The object-store port over a folder: each bucket is a sub-folder and each key a relative path, so `iws process`
 * leaves the very keys the cloud writes. Keys come from shared/domain/object-keys.ts; a key that would leave the
 * folder is refused. Multipart uploads belong to the browser upload path and are not offered here.
 */
export function createFolderObjectStore(
  root: string,
): ObjectStore & { pathOf(bucket: BucketName, key: string): string } {
  const pathOf = (bucket: BucketName, key: string) => {
    const segments = key.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..')) throw new Error('Object key outside the store');
    return join(root, bucket, ...segments);
  };
  const walk = (dir: string): string[] => {
    const stats = statSync(dir, { throwIfNoEntry: false });
    if (!stats) return [];
    if (stats.isFile()) return [dir];
    return readdirSync(dir).flatMap((entry) => walk(join(dir, entry)));
  };
  /** Keys under a prefix: walks from the prefix's folder, then filters on the whole prefix. */
  const keysUnder = (bucket: BucketName, prefix: string) => {
    const base = join(root, bucket);
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = folder ? pathOf(bucket, folder) : base;
    return walk(start)
      .map((path) => relative(base, path).split(sep).join('/'))
      .filter((key) => key.startsWith(prefix))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  };
  const unsupported = async (): Promise<never> => {
    throw new Error('Multipart uploads are not offered by the folder store');
  };
  return {
    pathOf,
    async get(bucket, key) {
      try {
        return new Uint8Array(readFileSync(pathOf(bucket, key)));
      } catch {
        throw Object.assign(new Error('No such key'), { name: 'NoSuchKey' });
      }
    },
    async getRange(bucket, key, start, end) {
      let handle: number;
      try {
        handle = openSync(pathOf(bucket, key), 'r');
      } catch {
        throw Object.assign(new Error('No such key'), { name: 'NoSuchKey' });
      }
      try {
        const bytes = new Uint8Array(Math.max(0, end - start));
        const read = readSync(handle, bytes, 0, bytes.length, start);
        return bytes.subarray(0, read);
      } finally {
        closeSync(handle);
      }
    },
    async put(bucket, key, bytes) {
      const path = pathOf(bucket, key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    },
    async list(bucket, prefix) {
      return keysUnder(bucket, prefix).map((key) => ({ key, size: statSync(pathOf(bucket, key)).size }));
    },
    async deletePrefix(bucket, prefix) {
      const keys = keysUnder(bucket, prefix);
      const base = join(root, bucket);
      for (const key of keys) {
        rmSync(pathOf(bucket, key));
        // Folders left empty go too, as a prefix without objects does not exist in a bucket.
        for (let dir = dirname(pathOf(bucket, key)); dir !== base && readdirSync(dir).length === 0; dir = dirname(dir))
          rmSync(dir, { recursive: true });
      }
      return keys.length;
    },
    async presignGet(bucket, key) {
      return pathToFileURL(pathOf(bucket, key)).href;
    },
    createMultipart: unsupported,
    presignPart: unsupported,
    listParts: unsupported,
    completeMultipart: unsupported,
    abortMultipart: unsupported,
  };
}
