/**
 * Classification time per series on DICOM folders: reading the acquisition from the files (a parse of every header)
 * shown apart from the classification itself, which is repeated to give a stable per-series figure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquisitionFromDicom, classifySeries, type SeriesClassification } from '#shared/dicom/classify/index.ts';

export type ClassifyTiming = {
  files: number;
  /** Reading the files' bytes from disk. */
  readFilesMs: number;
  /** acquisitionFromDicom over all files (header parse + summary). */
  acquisitionMs: number;
  /** classifySeries alone, mean over `repeats` calls. */
  classifyUs: number;
  repeats: number;
  result: SeriesClassification;
};

export function timeSeriesClassification(folder: string, repeats = 200): ClassifyTiming {
  let started = performance.now();
  const files = readdirSync(folder)
    .sort()
    .map((file) => new Uint8Array(readFileSync(join(folder, file))));
  const readFilesMs = performance.now() - started;
  started = performance.now();
  const acquisition = acquisitionFromDicom(files);
  const acquisitionMs = performance.now() - started;
  const result = classifySeries(acquisition);
  started = performance.now();
  for (let i = 0; i < repeats; i += 1) classifySeries(acquisition);
  const classifyUs = ((performance.now() - started) * 1000) / repeats;
  return { files: files.length, readFilesMs, acquisitionMs, classifyUs, repeats, result };
}
