import { gunzipSync, gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/**
 * Watermarks of what a patient downloads (docs/domain.md#patient-downloads): the text is the share's watermark line
 * (recipient, date, share id).
 */

/** Helvetica's WinAnsi encoding takes printable Latin-1 only; anything else becomes '?'. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

/** Stamps the line at the top and the bottom of every page, in grey, over the page's own content. */
export async function watermarkPdf(bytes: Uint8Array, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const line = printable(text);
  const size = 8;
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const x = Math.max(6, (width - font.widthOfTextAtSize(line, size)) / 2);
    for (const y of [height - 14, 8])
      page.drawText(line, { x, y, size, font, color: rgb(0.45, 0.45, 0.45), opacity: 0.85 });
  }
  return doc.save();
}

/** NIfTI-1: sizeof_hdr 348 and descrip char[80] at byte 148; NIfTI-2: 540 and byte 240 (NIfTI-1/-2 header layouts). */
const DESCRIP = { 348: 148, 540: 240 } as const;
const DESCRIP_BYTES = 80;

/**
 * A NIfTI volume cannot carry a visible mark: the line goes into the header's `descrip` field instead (80 bytes,
 * NUL-padded, cut to fit). Gzipped volumes (.nii.gz) are unpacked and packed again. Anything that is not a NIfTI-1 or
 * NIfTI-2 header answers undefined, and is then not offered for download.
 */
export function watermarkNifti(bytes: Uint8Array, text: string): Uint8Array | undefined {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  let raw: Buffer;
  try {
    raw = Buffer.from(gzipped ? gunzipSync(bytes) : bytes);
  } catch {
    return undefined;
  }
  if (raw.length < 348) return undefined;
  const size = raw.readInt32LE(0) === 348 || raw.readInt32LE(0) === 540 ? raw.readInt32LE(0) : raw.readInt32BE(0);
  const offset = size === 348 || size === 540 ? DESCRIP[size] : undefined;
  if (offset === undefined || raw.length < size) return undefined;
  const field = Buffer.alloc(DESCRIP_BYTES);
  field.write(text.replace(/[^\x20-\x7E]/g, '-'), 'latin1');
  field[DESCRIP_BYTES - 1] = 0;
  field.copy(raw, offset);
  return gzipped ? gzipSync(raw) : raw;
}

/** The NIfTI header's description as stored: up to the first NUL. */
export function niftiDescription(bytes: Uint8Array): string | undefined {
  const raw = Buffer.from(bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes);
  if (raw.length < 348) return undefined;
  const size = raw.readInt32LE(0) === 348 || raw.readInt32LE(0) === 540 ? raw.readInt32LE(0) : raw.readInt32BE(0);
  const offset = size === 348 || size === 540 ? DESCRIP[size] : undefined;
  if (offset === undefined) return undefined;
  const field = raw.subarray(offset, offset + DESCRIP_BYTES);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? DESCRIP_BYTES : end).toString('latin1');
}
