import { Inflate } from 'pako';
import { DicomLimitError, DicomParseError } from './errors.ts';

/**
 * Bounds on the work one file may cause, so one upload cannot stall the pipeline or exhaust a function's memory.
 * The largest real inputs (enhanced multi-frame MR, Siemens mosaics with CSA headers) stay far below each.
 */
export const DICOM_LIMITS = {
  /** Decompressed size (gzip or the deflated transfer syntax): at most this many times the compressed size... */
  inflateRatio: 100,
  /** ...but never less than this (a small, very compressible file is fine)... */
  inflateFloorBytes: 64 * 1024 * 1024,
  /** ...and never more than this, whatever the input. */
  inflateMaxBytes: 1024 * 1024 * 1024,
  /** Data elements in one file, every sequence item included. */
  maxElements: 1_000_000,
  /** Sequence nesting depth (a top-level sequence is depth 1). */
  maxSequenceDepth: 32,
} as const;

/** The decompressed-size bound for an input of `compressedBytes`. */
export function inflateLimit(compressedBytes: number): number {
  return Math.min(
    DICOM_LIMITS.inflateMaxBytes,
    Math.max(DICOM_LIMITS.inflateFloorBytes, compressedBytes * DICOM_LIMITS.inflateRatio),
  );
}

class OverLimit extends Error {}

/**
 * Inflates gzip (`raw` false) or raw deflate (`raw` true) and stops as soon as the output passes `limit`, so a
 * decompression bomb costs at most `limit` bytes of memory and the time to produce them.
 * @throws DicomLimitError DICOM_DECOMPRESSED_TOO_LARGE over the limit; DicomParseError for a broken stream.
 */
export function inflateBounded(bytes: Uint8Array, raw: boolean, limit = inflateLimit(bytes.length)): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate({ raw });
  inflater.onData = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > limit) throw new OverLimit();
    chunks.push(chunk);
  };
  try {
    inflater.push(bytes, true);
  } catch (error) {
    if (error instanceof OverLimit) throw new DicomLimitError('DICOM_DECOMPRESSED_TOO_LARGE', limit);
    throw new DicomParseError('DICOM parsing failed');
  }
  if (inflater.err) throw new DicomParseError('DICOM parsing failed');
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Counts elements and checks nesting while a dataset is read. */
export class ReadBudget {
  private elements = 0;
  element(): void {
    this.elements += 1;
    if (this.elements > DICOM_LIMITS.maxElements)
      throw new DicomLimitError('DICOM_TOO_MANY_ELEMENTS', DICOM_LIMITS.maxElements);
  }
  depth(depth: number): void {
    if (depth > DICOM_LIMITS.maxSequenceDepth)
      throw new DicomLimitError('DICOM_NESTED_TOO_DEEP', DICOM_LIMITS.maxSequenceDepth);
  }
}
