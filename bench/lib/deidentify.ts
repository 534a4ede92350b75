/**
 * De-identification throughput: the engine (read, de-identify, write each file) next to a plain copy of the same bytes
 * (read, write) and next to gdcmanon (GDCM's PS3.15 tool; `--dumb` mode clearing the core patient attributes, so it
 * does less than our profile), on the same folder. Runs are interleaved so machine noise falls on every tool alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { GDCMANON, listFolderFiles, median, timeSync, toolPresent, totalBytes } from './data.ts';

export type DeidentifyMeasurement = {
  files: number;
  bytes: number;
  runs: number;
  plainCopyMs: number[];
  engineMs: number[];
  /** Absent when gdcmanon is not installed. */
  gdcmanonMs?: number[];
};

export const DEFAULT_CONTEXT = { secret: 'bench', hospitalId: 'bench', options: AnonymizationOptionsSchema.parse({}) };

export function plainCopy(paths: string[], out: string): void {
  for (const path of paths) writeFileSync(join(out, basename(path)), new Uint8Array(readFileSync(path)));
}

export function engineDeidentify(paths: string[], out: string, context = DEFAULT_CONTEXT): void {
  for (const path of paths)
    writeFileSync(join(out, basename(path)), deidentifyDicom(new Uint8Array(readFileSync(path)), context).bytes);
}

export function gdcmanon(folder: string, out: string): void {
  execFileSync(
    GDCMANON,
    [
      '--dumb',
      '--continue',
      '--recursive',
      '--empty',
      '0010,0010',
      '--empty',
      '0010,0020',
      '--remove',
      '0008,0080',
      '-i',
      folder,
      '-o',
      out,
    ],
    { stdio: 'pipe' },
  );
}

export function measureDeidentification(folder: string, runs = 3): DeidentifyMeasurement {
  const paths = listFolderFiles(folder);
  const work = mkdtempSync(join(tmpdir(), 'iws-bench-deid-'));
  const withGdcm = toolPresent(GDCMANON);
  const result: DeidentifyMeasurement = {
    files: paths.length,
    bytes: totalBytes(paths),
    runs,
    plainCopyMs: [],
    engineMs: [],
    ...(withGdcm ? { gdcmanonMs: [] } : {}),
  };
  const fresh = (label: string, run: number) => {
    const out = join(work, `${label}-${run}`);
    mkdirSync(out, { recursive: true });
    return out;
  };
  try {
    for (let run = 0; run < runs; run += 1) {
      const copyOut = fresh('copy', run);
      result.plainCopyMs.push(timeSync(() => plainCopy(paths, copyOut)));
      const engineOut = fresh('engine', run);
      result.engineMs.push(timeSync(() => engineDeidentify(paths, engineOut)));
      if (result.gdcmanonMs) {
        const gdcmOut = fresh('gdcmanon', run);
        result.gdcmanonMs.push(timeSync(() => gdcmanon(folder, gdcmOut)));
      }
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return result;
}

/** Files per second and MiB per second at the median time. */
export function throughput(
  measurement: DeidentifyMeasurement,
  times: number[],
): { seconds: number; filesPerSecond: number; mibPerSecond: number } {
  const seconds = median(times) / 1000;
  return { seconds, filesPerSecond: measurement.files / seconds, mibPerSecond: measurement.bytes / 1048576 / seconds };
}
