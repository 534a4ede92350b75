/**
 * A large generated study for the upload benchmarks, made with the tests' DICOM generator (withElements of
 * tests/helpers/dicom-builder.ts) from the shared GE T1: `count` files in series of 200 slices, each a T1 slice with its
 * own study, series and instance UIDs and instance number, grown to `totalBytes / count` with a private padding
 * element, so the study has the file count and the bytes of a large hospital study. Written as
 * `<folder>/series-NN/IM-NNNNN.dcm`, plus the same bytes as one file (`<folder>.bin`) for the single-PUT baseline.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { withElements } from '#tests/helpers/dicom-builder.ts';
import { GE_T1_FOLDER, listFolderFiles } from './data.ts';

const ROOT = '1.2.826.0.1.3680043.9.9999.15';
const SLICES_PER_SERIES = 200;

export type GeneratedStudy = { folder: string; single: string; files: number; bytes: number };

export function generateStudy(folder: string, count: number, totalBytes: number): GeneratedStudy {
  const single = `${folder}.bin`;
  if (existsSync(single)) {
    // Made by an earlier run with the same figures (the folder name carries them).
    return { folder, single, files: count, bytes: statSync(single).size };
  }
  const sources = listFolderFiles(GE_T1_FOLDER).map((path) => new Uint8Array(readFileSync(path)));
  const target = Math.floor(totalBytes / count);
  const whole = openSync(`${single}.part`, 'w');
  let bytes = 0;
  try {
    for (let i = 0; i < count; i += 1) {
      const series = Math.floor(i / SLICES_PER_SERIES) + 1;
      const slice = (i % SLICES_PER_SERIES) + 1;
      const base = withElements(sources[i % sources.length]!, [
        { tag: '0020000D', vr: 'UI', value: `${ROOT}.1` },
        { tag: '0020000E', vr: 'UI', value: `${ROOT}.2.${series}` },
        { tag: '00080018', vr: 'UI', value: `${ROOT}.3.${series}.${slice}` },
        { tag: '00200011', vr: 'IS', value: String(series) },
        { tag: '00200013', vr: 'IS', value: String(slice) },
      ]);
      // (0009,0010) private creator and (0009,1001) OB padding: 12 + 12 bytes of headers around the padding.
      const padding = Math.max(0, target - base.length - 12 - 12 - 10);
      const file = withElements(base, [
        { tag: '00090010', vr: 'LO', value: 'IWS BENCH ' },
        { tag: '00091001', vr: 'OB', value: new Uint8Array(padding + (padding % 2)) },
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
