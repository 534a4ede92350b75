/**
 * A large generated study for the upload benchmarks, made with the tests' DICOM generator (withElements of
 * tests/helpers/dicom-builder.ts) from the shared GE T1: `count` files in series of 200 slices, each a T1 slice with its
 * own study, series and instance UIDs and instance number, grown to `totalBytes / count`, so the study has the file
 * count and the bytes of a large hospital study. A file grows where a hospital file carries its bytes, in its Pixel
 * Data: the slice gains blank rows (Rows grows with them), and the few bytes short of the target go in a private
 * padding element. Written as `<folder>/series-NN/IM-NNNNN.dcm`, plus the same bytes as one file (`<folder>.bin`) for
 * the single-PUT baseline.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseDicom } from '#shared/dicom/parse.ts';
import { parserKey, TAG } from '#shared/dicom/tags.ts';
import { withElements } from '#tests/helpers/dicom-builder.ts';
import { GE_T1_FOLDER, listFolderFiles } from './data.ts';

const ROOT = '1.2.826.0.1.3680043.9.9999.15';
const SLICES_PER_SERIES = 200;
/** (0009,0010) private creator (8 + 10 bytes) and the header of (0009,1001) OB (12 bytes) around the padding. */
const PADDING_OVERHEAD = 8 + 10 + 12;
/** PS3.6 Image Pixel module attributes the growth needs. */
const ROWS = '00280010';
const COLUMNS = '00280011';
const BITS_ALLOCATED = '00280100';
const SAMPLES_PER_PIXEL = '00280002';

export type GeneratedStudy = { folder: string; single: string; files: number; bytes: number };

type Slice = { bytes: Uint8Array; rows: number; rowBytes: number; pixels: Uint8Array };

function readSlice(path: string): Slice {
  const bytes = new Uint8Array(readFileSync(path));
  const { dataSet } = parseDicom(bytes);
  const pixelData = dataSet.elements[parserKey(TAG.PixelData)];
  if (!pixelData) throw new Error(`no Pixel Data in ${path}`);
  const rows = dataSet.uint16(parserKey(ROWS)) ?? 0;
  const columns = dataSet.uint16(parserKey(COLUMNS)) ?? 0;
  const bitsAllocated = dataSet.uint16(parserKey(BITS_ALLOCATED)) ?? 16;
  const samples = dataSet.uint16(parserKey(SAMPLES_PER_PIXEL)) ?? 1;
  return {
    bytes,
    rows,
    rowBytes: (columns * samples * bitsAllocated) / 8,
    pixels: bytes.subarray(pixelData.dataOffset, pixelData.dataOffset + pixelData.length),
  };
}

/** The study's folder name for these figures (studies generated with the padding in the header had another). */
export function generatedStudyFolder(work: string, count: number, mib: number | string): string {
  return join(work, `study-${count}-${mib}mib-px`);
}

export function generateStudy(folder: string, count: number, totalBytes: number): GeneratedStudy {
  const single = `${folder}.bin`;
  if (existsSync(single)) {
    // Made by an earlier run with the same figures (the folder name carries them).
    return { folder, single, files: count, bytes: statSync(single).size };
  }
  const sources = listFolderFiles(GE_T1_FOLDER).map(readSlice);
  const target = Math.floor(totalBytes / count);
  const whole = openSync(`${single}.part`, 'w');
  let bytes = 0;
  try {
    for (let i = 0; i < count; i += 1) {
      const series = Math.floor(i / SLICES_PER_SERIES) + 1;
      const slice = (i % SLICES_PER_SERIES) + 1;
      const source = sources[i % sources.length]!;
      const extraRows = Math.max(
        0,
        Math.floor((target - source.bytes.length - PADDING_OVERHEAD) / Math.max(1, source.rowBytes)),
      );
      const pixels = new Uint8Array(source.pixels.length + extraRows * source.rowBytes);
      pixels.set(source.pixels);
      const grown = withElements(source.bytes, [
        { tag: TAG.StudyInstanceUID, vr: 'UI', value: `${ROOT}.1` },
        { tag: TAG.SeriesInstanceUID, vr: 'UI', value: `${ROOT}.2.${series}` },
        { tag: TAG.SOPInstanceUID, vr: 'UI', value: `${ROOT}.3.${series}.${slice}` },
        { tag: TAG.SeriesNumber, vr: 'IS', value: String(series) },
        { tag: TAG.InstanceNumber, vr: 'IS', value: String(slice) },
        { tag: ROWS, vr: 'US', value: [source.rows + extraRows] },
        { tag: TAG.PixelData, vr: 'OW', value: pixels },
      ]);
      const padding = target - grown.length - PADDING_OVERHEAD;
      const file =
        padding < 2
          ? grown
          : withElements(grown, [
              { tag: '00090010', vr: 'LO', value: 'IWS BENCH ' },
              { tag: '00091001', vr: 'OB', value: new Uint8Array(padding - (padding % 2)) },
            ]);
      const dir = join(folder, `series-${String(series).padStart(2, '0')}`);
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `IM-${String(i + 1).padStart(5, '0')}.dcm`);
      const handle = openSync(path, 'w');
      writeSync(handle, file);
      closeSync(handle);
      writeSync(whole, file);
      bytes += file.length;
    }
  } finally {
    closeSync(whole);
  }
  renameSync(`${single}.part`, single);
  return { folder, single, files: count, bytes };
}
