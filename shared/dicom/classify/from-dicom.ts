import { parseDicom } from '#shared/dicom/parse.ts';
import { acquisitionFromReaders } from './from-instances.ts';
import { readerFromDataSet, readerFromJson } from './tag-reader.ts';
import type { SeriesAcquisition } from './types.ts';

/**
 * The classifier's input from all files of ONE series (gzip and deflate handled by parseDicom). Reads vendor diffusion
 * information: standard (0018,9087/9089), GE (0043,1039), Siemens (0019,100C/100E and the CSA header), Philips (2001,1003).
 */
export function acquisitionFromDicom(files: Uint8Array[]): SeriesAcquisition {
  return acquisitionFromReaders(files.map((bytes) => readerFromDataSet(parseDicom(bytes).dataSet)));
}

/** PS3.18 Annex F JSON (an array of instances) grouped by SeriesInstanceUID (0020,000E), one acquisition per series. */
export function acquisitionsFromDicomJson(instances: unknown[]): Map<string, SeriesAcquisition> {
  const bySeries = new Map<string, ReturnType<typeof readerFromJson>[]>();
  for (const instance of instances) {
    if (!instance || typeof instance !== 'object') continue;
    const reader = readerFromJson(instance as Record<string, unknown>);
    const uid = reader.text('0020000e') ?? 'unknown-series';
    const group = bySeries.get(uid) ?? [];
    group.push(reader);
    bySeries.set(uid, group);
  }
  return new Map([...bySeries].map(([uid, readers]) => [uid, acquisitionFromReaders(readers)]));
}
