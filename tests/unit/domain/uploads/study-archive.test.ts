import { describe, expect, it, vi } from 'vitest';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { writeManifest } from '#shared/domain/uploads/manifest.ts';
import {
  archiveLayout,
  archivePartBytes,
  archiveSegments,
  ArchiveError,
  fileBytesIn,
  MAX_PARTS,
  MIN_ARCHIVE_PART_BYTES,
  TAR_BLOCK,
  unpackArchive,
} from '#shared/domain/uploads/study-archive.ts';
import { readStudyInput } from '#shared/domain/uploads/study-input.ts';
import { partBody } from '#shared/client/upload-client.ts';
import { createMemoryObjectStore } from '#functions/adapters/memory/index.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { packArchive } from '#tests/helpers/study-archive.ts';

const bytesOf = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
const FILES = [bytesOf(1, 1), bytesOf(512, 2), bytesOf(1000, 3), bytesOf(0, 4), bytesOf(70_000, 5)];

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function unpackAll(bytes: Uint8Array, sizes: number[], chunk = 777) {
  const out: { fileIndex: number; bytes: Uint8Array }[] = [];
  for await (const file of unpackArchive(chunked(bytes, chunk), sizes)) out.push(file);
  return out;
}

describe('the study archive', () => {
  it('lays files out as ustar members named by index, padded to blocks, with two end blocks', () => {
    const layout = archiveLayout([1, 512, 1000]);
    expect(layout.headerOffsets).toEqual([0, 1024, 2048]);
    expect(layout.totalBytes).toBe(2048 + 512 + 1024 + 1024);
  });

  it('unpacks back to the same files whatever the chunking', async () => {
    const archive = packArchive(FILES);
    for (const chunk of [13, 511, 512, 4096, archive.length]) {
      const files = await unpackAll(
        archive,
        FILES.map((f) => f.length),
        chunk,
      );
      expect(files.map((f) => f.fileIndex)).toEqual([0, 1, 2, 3, 4]);
      files.forEach((f) => expect(f.bytes).toEqual(FILES[f.fileIndex]));
    }
  });

  it('builds any part from segments that add up to the archive bytes', async () => {
    const archive = packArchive(FILES);
    const layout = archiveLayout(FILES.map((f) => f.length));
    const sources = FILES.map((f, i) => ({
      path: `f${i}`,
      sizeBytes: f.length,
      read: async (start: number, end: number) => f.slice(start, end),
    }));
    for (const [start, end] of [
      [0, archive.length],
      [100, 1500],
      [1024, 1025],
      [archive.length - 1500, archive.length],
    ] as const) {
      expect(await partBody(sources, layout, start, end)).toEqual(archive.subarray(start, end));
      const blob = await partBody(
        sources.map((s, i) => ({ ...s, slice: (a: number, b: number) => new Blob([FILES[i]!.slice(a, b)]) })),
        layout,
        start,
        end,
      );
      expect(new Uint8Array(await (blob as Blob).arrayBuffer())).toEqual(archive.subarray(start, end));
    }
    expect(archiveSegments(layout, 0, 10)).toEqual([{ kind: 'header', fileIndex: 0, from: 0, to: 10 }]);
  });

  it('counts the file bytes a part carries, for per-file progress', () => {
    const layout = archiveLayout([1000, 10]);
    expect([...fileBytesIn(layout, 0, 1000)]).toEqual([[0, 488]]);
    expect([...fileBytesIn(layout, 1000, layout.totalBytes)]).toEqual([
      [0, 512],
      [1, 10],
    ]);
  });

  it('sizes parts at 16 MiB, larger only past 10,000 parts', () => {
    expect(archivePartBytes(1024)).toBe(MIN_ARCHIVE_PART_BYTES);
    expect(archivePartBytes(2 * 1024 ** 3)).toBe(MIN_ARCHIVE_PART_BYTES);
    const huge = 400 * 1024 ** 3;
    expect(Math.ceil(huge / archivePartBytes(huge))).toBeLessThanOrEqual(MAX_PARTS);
  });

  it('refuses a truncated archive, a member out of order or resized, and a bad checksum', async () => {
    const archive = packArchive(FILES);
    const sizes = FILES.map((f) => f.length);
    await expect(unpackAll(archive.subarray(0, archive.length - 1), sizes)).rejects.toBeInstanceOf(ArchiveError);
    await expect(unpackAll(archive.subarray(0, 700), sizes)).rejects.toBeInstanceOf(ArchiveError);
    await expect(unpackAll(archive, [1, 512, 999, 0, 70_000])).rejects.toMatchObject({
      code: 'UPLOAD_ARCHIVE_INVALID',
    });
    await expect(unpackAll(packArchive([FILES[1]!, FILES[0]!]), [1, 512])).rejects.toBeInstanceOf(ArchiveError);
    const corrupt = archive.slice();
    corrupt[20] = 0x41;
    await expect(unpackAll(corrupt, sizes)).rejects.toBeInstanceOf(ArchiveError);
  });

  it('never repeats a member name in an error or a log: a client could write a patient name there', async () => {
    const archive = packArchive([bytesOf(10, 1)]);
    const name = 'DOE^JANE_19700101/IM0001.dcm';
    const forged = archive.slice();
    for (let i = 0; i < 100; i++) forged[i] = i < name.length ? name.charCodeAt(i) : 0;
    // A consistent header (its checksum recomputed), so only the name is wrong.
    forged.fill(0x20, 148, 156);
    const sum = forged.subarray(0, TAR_BLOCK).reduce((a, b) => a + b, 0);
    forged.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    const logs = vi.spyOn(console, 'log');
    const errors = vi.spyOn(console, 'error');
    const failure = (await unpackAll(forged, [10]).catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(ArchiveError);
    expect(`${failure.message} ${failure.stack} ${JSON.stringify(failure)}`).not.toMatch(/DOE|JANE|IM0001/);
    expect([...logs.mock.calls, ...errors.mock.calls].flat().join(' ')).not.toMatch(/DOE|JANE/);
    logs.mockRestore();
    errors.mockRestore();
  });
});

describe("the de-identify stage's input", () => {
  it('unpacks a packed upload by ranged reads and reads files stored on their own, in index order', async () => {
    const objects = createMemoryObjectStore();
    const ranges: [number, number][] = [];
    const getRange = objects.getRange.bind(objects);
    objects.getRange = async (bucket, key, start, end) => {
      ranges.push([start, end]);
      return getRange(bucket, key, start, end);
    };
    await writeManifest(objects, 'h1', 'd1', 's1', {
      files: FILES.map((f, i) => ({ fileKey: fileKeyOf(`${i}`), sizeBytes: f.length })),
    });
    await objects.put('uploads', uploadKeys.archive('h1', 'd1', 's1'), packArchive(FILES));
    const input = await readStudyInput(objects, 'h1', 'd1', { chunkBytes: 4096 });
    expect(input.empty).toBe(false);
    const files: { fileIndex: number; bytes: Uint8Array }[] = [];
    for await (const file of input.files()) files.push(file);
    expect(files.map((f) => f.fileIndex)).toEqual([0, 1, 2, 3, 4]);
    files.forEach((f) => expect(f.bytes).toEqual(FILES[f.fileIndex]));
    expect(ranges.every(([start, end]) => end - start <= 4096)).toBe(true);

    const single = createMemoryObjectStore();
    await single.put('uploads', uploadKeys.file('h1', 'd1', 1), FILES[1]!);
    await single.put('uploads', uploadKeys.file('h1', 'd1', 0), FILES[0]!);
    const alone: number[] = [];
    for await (const file of (await readStudyInput(single, 'h1', 'd1')).files()) alone.push(file.fileIndex);
    expect(alone).toEqual([0, 1]);
    expect((await readStudyInput(createMemoryObjectStore(), 'h1', 'd1')).empty).toBe(true);
  });
});
