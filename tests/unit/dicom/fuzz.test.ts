import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { DicomParseError, gunzipIfNeeded } from '#shared/dicom/parse.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { readSeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const SEEDS = [
  'transfer-syntaxes/dicom/1.dcm',
  'transfer-syntaxes/dicom/2.dcm',
  'transfer-syntaxes/dicom/3.dcm',
  'transfer-syntaxes/dicom/9.dcm',
  'enhanced-mr-small/emri_small_big_endian.dcm',
  'siemens-dwi-mosaic/siemens_dwi_0.dcm.gz',
  'ct-small/CT_small.dcm',
  'pet-slices/1.dcm',
];
const context = { secret: 'fuzz', hospitalId: 'fuzz', options: AnonymizationOptionsSchema.parse({}) };

/** A small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  const kind = Math.floor(next() * 4);
  if (kind === 0) return bytes.slice(0, Math.floor(next() * bytes.length));
  if (kind === 1) return Uint8Array.from({ length: Math.floor(next() * 4096) }, () => Math.floor(next() * 256));
  const copy = bytes.slice();
  const flips = 1 + Math.floor(next() * 16);
  // Header region first: mutations there reach lengths, VRs and tags.
  const span = kind === 2 ? Math.min(copy.length, 4096) : copy.length;
  for (let i = 0; i < flips; i++) copy[Math.floor(next() * span)] = Math.floor(next() * 256);
  return copy;
}

describe('bounded fuzz: mutated, truncated and random files', () => {
  it('never crashes or hangs; bad files get the record message, good files still process', () => {
    // Prepare
    const seeds = SEEDS.map((path) => gunzipIfNeeded(new Uint8Array(readFileSync(join(DICOM, path)))));
    const next = random(20240611);
    const started = Date.now();
    let rejected = 0;
    let processed = 0;
    // Act
    for (let round = 0; round < 400; round++) {
      const input = mutate(seeds[round % seeds.length]!, next);
      const check = checkDicom(input);
      if (check.valid) readSeriesFileMetadata(check.parsed, 'fuzz.dcm', input.length);
      else expect(['Not a DICOM file', 'DICOM parsing failed']).toContain(check.message);
      try {
        const result = deidentifyDicom(input, context);
        expect(checkDicom(result.bytes).valid).toBe(true);
        processed += 1;
      } catch (error) {
        // Assess: the only failure is a parse error with the catalogue wording.
        expect(error).toBeInstanceOf(DicomParseError);
        expect(['Not a DICOM file', 'DICOM parsing failed']).toContain((error as Error).message);
        rejected += 1;
      }
    }
    // Good files processed between the bad ones.
    for (const seed of seeds) expect(deidentifyDicom(seed, context).bytes.length).toBeGreaterThan(1000);
    expect(processed).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(20);
    expect(Date.now() - started).toBeLessThan(45_000);
  });
});
