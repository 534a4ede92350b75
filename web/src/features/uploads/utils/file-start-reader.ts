/**
 * Reads the first bytes of picked files into buffers reused from file to file (docs/domain.md#uploads). Each
 * `Blob.arrayBuffer()` makes a new buffer that only a full garbage collection frees, and the browser runs one only
 * after tens of MiB of them, so reading the headers of thousands of files that way sets the page's peak memory. A
 * byte stream read with a BYOB reader (WHATWG Streams) fills a buffer the page owns, which the next file reuses.
 */

/** Reads larger than this (a whole file that only a full parse can judge) get their own buffer, as before. */
const POOLED_MAX_BYTES = 1024 * 1024;
/** Free buffers kept: discovery reads one file at a time, and a header that grows leaves its smaller buffer. */
const POOL_SIZE = 4;
const PAGE = 4096;

type Bytes = Uint8Array<ArrayBuffer>;

export type FileStart = {
  /** The file's first `end` bytes (a view valid until the next read or `close`); `end` never decreases. */
  read(end: number): Promise<Uint8Array>;
  /** Gives the buffer back for the next file; the views read before are not to be used after it. */
  close(): void;
};

export class FileStartReader {
  private readonly free: Bytes[] = [];

  open(file: Blob): FileStart {
    let buffer: Bytes | undefined;
    let got = 0;
    return {
      read: async (end) => {
        if (end > POOLED_MAX_BYTES) {
          return new Uint8Array(await (end >= file.size ? file : file.slice(0, end)).arrayBuffer());
        }
        if (!buffer || buffer.byteLength < end) {
          const bigger = this.take(end);
          if (buffer) {
            bigger.set(buffer.subarray(0, got));
            this.give(buffer);
          }
          buffer = bigger;
        }
        if (end > got) {
          buffer = await readInto(file.slice(got, end), buffer, got, end);
          got = end;
        }
        return buffer.subarray(0, end);
      },
      close: () => {
        if (buffer) this.give(buffer);
        buffer = undefined;
      },
    };
  }

  private take(bytes: number): Bytes {
    const index = this.free.findIndex((candidate) => candidate.byteLength >= bytes);
    if (index >= 0) return this.free.splice(index, 1)[0]!;
    return new Uint8Array(Math.ceil(bytes / PAGE) * PAGE);
  }

  private give(buffer: Bytes): void {
    // A read that failed half way leaves its buffer taken over by the stream (detached, no bytes left).
    if (buffer.byteLength === 0) return;
    this.free.push(buffer);
    if (this.free.length > POOL_SIZE) {
      this.free.sort((a, b) => b.byteLength - a.byteLength);
      this.free.length = POOL_SIZE;
    }
  }
}

/**
 * Reads `blob` into `buffer` from `from` to `to`. A BYOB read takes the buffer over and answers it back in a view, so
 * the buffer to keep using is the one returned.
 */
async function readInto(blob: Blob, buffer: Bytes, from: number, to: number): Promise<Bytes> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    // A browser whose Blob streams are not byte streams: one buffer per read, as Blob.arrayBuffer() gives.
    buffer.set(new Uint8Array(await blob.arrayBuffer()), from);
    return buffer;
  }
  let whole: ArrayBuffer = buffer.buffer;
  let offset = from;
  try {
    while (offset < to) {
      const { value, done } = await reader.read(new Uint8Array(whole, offset, to - offset));
      if (value) whole = value.buffer;
      if (done || !value) break;
      offset += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  if (offset < to) throw new Error('The file is shorter than when it was picked');
  return new Uint8Array(whole);
}
