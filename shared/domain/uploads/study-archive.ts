/**
 * The packed study upload (docs/domain.md#upload-sessions): a study's files, in the order the client declared them,
 * written as one POSIX ustar archive (IEEE Std 1003.1, "pax" format's ustar header) and sent as one S3 multipart
 * object in large parts. Each member is named by its file index only (`0`, `1`, ...), never by its path, so the
 * archive carries no file or folder name; its layout is computed from the declared sizes alone, so the client and the
 * server agree on every byte offset without exchanging more than the sizes.
 *
 * Pure and browser-safe: the client builds parts from it, the de-identify stage unpacks with it.
 */
import { ValidationError } from '#shared/domain/errors.ts';

export const TAR_BLOCK = 512;
/** Two zero blocks end a ustar archive. */
const END_BYTES = 2 * TAR_BLOCK;
/** The ustar size field holds 11 octal digits: a member is at most 8 GiB - 1 (a DICOM file is far smaller). */
export const MAX_ARCHIVE_MEMBER_BYTES = 8 ** 11 - 1;
/** S3's limits on a multipart upload: at most 10,000 parts, each at least 5 MiB but the last. */
export const MAX_PARTS = 10_000;
/** The part size of a packed upload: 16 MiB, or larger when the study would need more than MAX_PARTS parts. */
export const MIN_ARCHIVE_PART_BYTES = 16 * 1024 * 1024;

const MiB = 1024 * 1024;

/** Where each file's header and bytes lie in the archive. */
export type ArchiveLayout = {
  /** Offset of each file's header; its bytes start TAR_BLOCK later. */
  headerOffsets: number[];
  sizes: number[];
  totalBytes: number;
};

const padded = (size: number) => Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;

export function archiveLayout(sizes: readonly number[]): ArchiveLayout {
  const headerOffsets: number[] = [];
  let offset = 0;
  for (const size of sizes) {
    headerOffsets.push(offset);
    offset += TAR_BLOCK + padded(size);
  }
  return { headerOffsets, sizes: [...sizes], totalBytes: offset + END_BYTES };
}

/** Part size for an archive: whole MiB, at least MIN_ARCHIVE_PART_BYTES, and never more than MAX_PARTS parts. */
export function archivePartBytes(totalBytes: number): number {
  return Math.max(MIN_ARCHIVE_PART_BYTES, Math.ceil(totalBytes / MAX_PARTS / MiB) * MiB);
}

export function archivePartCount(totalBytes: number, partBytes: number): number {
  return Math.max(1, Math.ceil(totalBytes / partBytes));
}

/** The member name of a file: its index, in decimal. */
export function memberName(fileIndex: number): string {
  return String(fileIndex);
}

function writeString(block: Uint8Array, offset: number, length: number, value: string): void {
  for (let i = 0; i < value.length && i < length; i++) block[offset + i] = value.charCodeAt(i) & 0x7f;
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  // length - 1 digits, then NUL.
  writeString(block, offset, length - 1, value.toString(8).padStart(length - 1, '0'));
}

function headerChecksum(block: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

/** The ustar header of file `fileIndex` (a regular file, mode 0644, owner 0, time 0: nothing about the sender). */
export function tarHeader(fileIndex: number, size: number): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_ARCHIVE_MEMBER_BYTES)
    throw new ValidationError('FILE_TOO_LARGE', { n: MAX_ARCHIVE_MEMBER_BYTES });
  const block = new Uint8Array(TAR_BLOCK);
  writeString(block, 0, 100, memberName(fileIndex));
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, 0);
  block[156] = 0x30; // '0': a regular file
  writeString(block, 257, 6, 'ustar');
  writeString(block, 263, 2, '00');
  const sum = headerChecksum(block);
  writeString(block, 148, 7, sum.toString(8).padStart(6, '0'));
  block[154] = 0;
  block[155] = 0x20;
  return block;
}

/** A piece of a part: header bytes of a file, a range of a file's bytes, or zero padding. */
export type PartSegment =
  | { kind: 'header'; fileIndex: number; from: number; to: number }
  | { kind: 'data'; fileIndex: number; from: number; to: number }
  | { kind: 'zeros'; length: number };

/** Index of the last file whose header starts at or before `offset` (files are in offset order). */
function fileAt(layout: ArchiveLayout, offset: number): number {
  let lo = 0;
  let hi = layout.headerOffsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.headerOffsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The pieces of archive bytes [start, end), in order. */
export function archiveSegments(layout: ArchiveLayout, start: number, end: number): PartSegment[] {
  const segments: PartSegment[] = [];
  const zeros = (length: number) => {
    const last = segments.at(-1);
    if (last?.kind === 'zeros') last.length += length;
    else if (length > 0) segments.push({ kind: 'zeros', length });
  };
  let offset = start;
  let index = layout.sizes.length > 0 ? fileAt(layout, start) : 0;
  while (offset < end && index < layout.sizes.length) {
    const header = layout.headerOffsets[index]!;
    const dataStart = header + TAR_BLOCK;
    const size = layout.sizes[index]!;
    const memberEnd = dataStart + padded(size);
    if (offset < dataStart) {
      const to = Math.min(end, dataStart);
      segments.push({ kind: 'header', fileIndex: index, from: offset - header, to: to - header });
      offset = to;
      continue;
    }
    if (offset < dataStart + size) {
      const to = Math.min(end, dataStart + size);
      segments.push({ kind: 'data', fileIndex: index, from: offset - dataStart, to: to - dataStart });
      offset = to;
      continue;
    }
    const to = Math.min(end, memberEnd);
    zeros(to - offset);
    offset = to;
    if (offset >= memberEnd) index++;
  }
  if (offset < end) zeros(end - offset);
  return segments;
}

/** Bytes of each file's data inside archive bytes [start, end): per-file progress from a finished part. */
export function fileBytesIn(layout: ArchiveLayout, start: number, end: number): Map<number, number> {
  const bytes = new Map<number, number>();
  for (const s of archiveSegments(layout, start, end))
    if (s.kind === 'data') bytes.set(s.fileIndex, (bytes.get(s.fileIndex) ?? 0) + s.to - s.from);
  return bytes;
}

/** The archive could not be read back as declared: a truncated or rewritten upload. Names no member, ever. */
export class ArchiveError extends ValidationError {
  /** Named by its catalogue code, so a failed pipeline run reports the catalogue's words (docs/pipeline.md). */
  override name = 'UPLOAD_ARCHIVE_INVALID';
  constructor() {
    super('UPLOAD_ARCHIVE_INVALID');
  }
}

function readOctal(block: Uint8Array, offset: number, length: number): number {
  let text = '';
  for (let i = offset; i < offset + length; i++) {
    const c = block[i]!;
    if (c === 0 || c === 0x20) {
      if (text.length > 0) break;
      continue;
    }
    if (c < 0x30 || c > 0x37) return Number.NaN;
    text += String.fromCharCode(c);
  }
  return text.length > 0 ? parseInt(text, 8) : Number.NaN;
}

function readName(block: Uint8Array): string {
  let name = '';
  for (let i = 0; i < 100 && block[i] !== 0; i++) name += String.fromCharCode(block[i]!);
  return name;
}

/**
 * Reads a packed upload back, member by member, from its bytes in order (any chunking): yields each file with its
 * index. Every header must be a valid ustar header of the next file in the declared order with the declared size,
 * and the archive must end where the layout says; otherwise ArchiveError (whose message names no member: a header
 * is client-written and could hold anything). Memory holds one file plus one chunk.
 */
export async function* unpackArchive(
  chunks: AsyncIterable<Uint8Array>,
  sizes: readonly number[],
): AsyncGenerator<{ fileIndex: number; bytes: Uint8Array }> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Unread bytes as a queue of chunks (the first one from `head` on): a large file is joined once, not re-copied per chunk.
  const queue: Uint8Array[] = [];
  let head = 0;
  let buffered = 0;
  let done = false;
  /** Ensures `n` unread bytes are buffered, unless the stream ends first. */
  async function fill(n: number): Promise<boolean> {
    while (buffered < n && !done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else if (next.value.length > 0) {
        queue.push(next.value);
        buffered += next.value.length;
      }
    }
    return buffered >= n;
  }
  /** The next `n` bytes (a copy when they span chunks); `keep` false only skips them. */
  function take(n: number, keep = true): Uint8Array {
    const out = keep ? new Uint8Array(n) : undefined;
    let written = 0;
    while (written < n) {
      const chunk = queue[0]!;
      const count = Math.min(n - written, chunk.length - head);
      out?.set(chunk.subarray(head, head + count), written);
      written += count;
      head += count;
      if (head === chunk.length) {
        queue.shift();
        head = 0;
      }
    }
    buffered -= n;
    return out ?? new Uint8Array(0);
  }

  for (let fileIndex = 0; fileIndex < sizes.length; fileIndex++) {
    const size = sizes[fileIndex]!;
    if (!(await fill(TAR_BLOCK))) throw new ArchiveError();
    const header = take(TAR_BLOCK);
    const sum = readOctal(header, 148, 8);
    const valid =
      sum === headerChecksum(header) &&
      readName(header) === memberName(fileIndex) &&
      readOctal(header, 124, 12) === size &&
      (header[156] === 0x30 || header[156] === 0) &&
      String.fromCharCode(...header.subarray(257, 262)) === 'ustar';
    if (!valid) throw new ArchiveError();
    if (!(await fill(padded(size)))) throw new ArchiveError();
    const bytes = take(size);
    take(padded(size) - size, false);
    yield { fileIndex, bytes };
  }
  if (!(await fill(END_BYTES))) throw new ArchiveError();
  const end = take(END_BYTES);
  if (end.some((b) => b !== 0)) throw new ArchiveError();
}
