import { gunzipSync, gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { PNG } from 'pngjs';

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

/** A 5x7 bitmap font, one number per row, bit 16 the leftmost column; lower case is drawn in upper case. */
const GLYPHS: Record<string, readonly number[]> = {
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [28, 18, 17, 17, 17, 18, 28],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 17, 10, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  '@': [14, 17, 1, 13, 21, 21, 14],
  '.': [0, 0, 0, 0, 0, 12, 12],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '+': [0, 4, 4, 31, 4, 4, 0],
  _: [0, 0, 0, 0, 0, 0, 31],
  ':': [0, 12, 12, 0, 12, 12, 0],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};
const UNKNOWN_GLYPH = [31, 17, 17, 17, 17, 17, 31];

/**
 * Draws the line into a PNG image (a thumbnail): a dark band along the bottom with the recipient, the date and the
 * share id on a line each, in white, scaled to the image. The image keeps its size.
 */
export function watermarkPng(bytes: Uint8Array, text: string): Uint8Array {
  const png = PNG.sync.read(Buffer.from(bytes));
  const lines = text.split(' · ').map((l) => l.toUpperCase());
  const longest = Math.max(...lines.map((l) => l.length));
  const scale = Math.max(1, Math.floor((png.width - 4) / (longest * 6)));
  const perLine = Math.max(1, Math.floor((png.width - 4) / (6 * scale)));
  const lineHeight = 9 * scale;
  const bandTop = Math.max(0, png.height - lines.length * lineHeight - 2 * scale);
  const set = (x: number, y: number, v: number) => {
    if (x < 0 || y < 0 || x >= png.width || y >= png.height) return;
    const i = (y * png.width + x) * 4;
    png.data[i] = v;
    png.data[i + 1] = v;
    png.data[i + 2] = v;
    png.data[i + 3] = 255;
  };
  for (let y = bandTop; y < png.height; y++) for (let x = 0; x < png.width; x++) set(x, y, 0);
  lines.forEach((line, row) => {
    [...line.slice(0, perLine)].forEach((ch, col) => {
      const glyph = GLYPHS[ch] ?? UNKNOWN_GLYPH;
      glyph.forEach((bits, gy) => {
        for (let gx = 0; gx < 5; gx++) {
          if (!(bits & (16 >> gx))) continue;
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++)
              set(2 + (col * 6 + gx) * scale + dx, bandTop + scale + row * lineHeight + gy * scale + dy, 255);
        }
      });
    });
  });
  return PNG.sync.write(png);
}
