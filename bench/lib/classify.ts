/**
 * Classification time per series on DICOM folders: reading the acquisition from the files (a parse of every header)
 * shown apart from the classification itself, which is repeated to give a stable per-series figure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  acquisitionFromDicom,
  acquisitionFromSidecar,
  classifySeries,
  type SeriesClassification,
} from '#shared/dicom/classify/index.ts';
import { runDcm2niix } from '#shared/dicom/convert-dcm2niix.ts';

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

/** A shared DICOM series with the answer a radiographer would give it (class, BIDS suffix). */
type SharedSeries = { name: string; files: string[]; gzip?: boolean; label: string; suffix?: string };

function sharedSeries(root: string): SharedSeries[] {
  const all = (folder: string) =>
    readdirSync(join(root, folder))
      .sort()
      .map((file) => join(root, folder, file));
  return [
    { name: 'ge-t1-ir-spgr', files: all('ge-t1-ir-spgr/dicom'), label: 'T1', suffix: 'T1w' },
    { name: 'philips-dti-b2000', files: all('philips-dti-b2000/dicom/601_WIP_dti_ax'), label: 'DTI', suffix: 'dwi' },
    // Two volumes (b=0 and one b=1000 direction): diffusion-weighted, not a tensor acquisition.
    { name: 'siemens-dwi-mosaic', files: all('siemens-dwi-mosaic'), gzip: true, label: 'DWI', suffix: 'dwi' },
    // One gradient-echo EPI mosaic volume (TE 30 ms): the read-out of a BOLD run.
    {
      name: 'transfer-syntaxes (1.dcm)',
      files: [join(root, 'transfer-syntaxes/dicom/1.dcm')],
      label: 'OTHER',
      suffix: 'bold',
    },
    { name: 'enhanced-mr-small', files: [join(root, 'enhanced-mr-small/emri_small.dcm')], label: 'T1', suffix: 'T1w' },
    { name: 'ct-small', files: [join(root, 'ct-small/CT_small.dcm')], label: 'OTHER' },
    {
      name: 'pet-slices',
      files: all('pet-slices').filter((file) => file.endsWith('.dcm')),
      label: 'OTHER',
      suffix: 'pet',
    },
  ];
}

const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/**
 * Runs dcm2niix (its WASM build, v1.0.20241231: the Debian binary predates BidsGuess) on each shared DICOM series and
 * prints its BidsGuess beside our classification from the DICOM files and from dcm2niix's own sidecar.
 */
export async function compareWithDcm2niix(root: string): Promise<string[]> {
  const lines: string[] = [];
  let ours = 0;
  let theirs = 0;
  let agree = 0;
  const series = sharedSeries(root);
  for (const item of series) {
    const bytes = item.files.map((file) => {
      const raw = new Uint8Array(readFileSync(file));
      return item.gzip ? new Uint8Array(gunzipSync(raw)) : raw;
    });
    const fromDicom = classifySeries(acquisitionFromDicom(bytes));
    const run = await runDcm2niix(
      bytes.map((data, index) => ({ name: `${index}.dcm`, bytes: data })),
      ['-b', 'y', '-ba', 'n', '-z', 'n', '-f', 'series'],
    );
    const jsonName = [...run.outputs.keys()].find((name) => name.endsWith('.json'));
    const sidecar = jsonName
      ? (JSON.parse(text(run.outputs.get(jsonName)) ?? '{}') as Record<string, unknown>)
      : undefined;
    const base = jsonName?.replace(/\.json$/, '') ?? '';
    const fromSidecar = sidecar
      ? classifySeries(
          acquisitionFromSidecar(sidecar, text(run.outputs.get(`${base}.bval`)), text(run.outputs.get(`${base}.bvec`))),
        )
      : undefined;
    const guess = Array.isArray(sidecar?.BidsGuess) ? (sidecar.BidsGuess as string[]) : undefined;
    const guessSuffix = guess?.[1]?.split('_').pop();
    const oursRight = fromDicom.classifiedType === item.label && (item.suffix ?? 'unknown') === fromDicom.bids.suffix;
    const guessRight =
      guessSuffix !== undefined && guessSuffix.toLowerCase() === (item.suffix ?? 'unknown').toLowerCase();
    ours += oursRight ? 1 : 0;
    theirs += guessRight ? 1 : 0;
    const same =
      !fromSidecar ||
      (fromSidecar.classifiedType === fromDicom.classifiedType &&
        JSON.stringify(fromSidecar.bids) === JSON.stringify(fromDicom.bids));
    agree += same ? 1 : 0;
    const entities = (result: SeriesClassification) =>
      Object.entries(result.bids.entities ?? {})
        .map(([key, value]) => ` ${key}-${value}`)
        .join('');
    lines.push(
      `${item.name.padEnd(26)} label ${item.label}/${item.suffix ?? '-'}  ours(DICOM) ${fromDicom.classifiedType}/${fromDicom.bids.suffix}${entities(fromDicom)}${oursRight ? '' : ' ✗'}  ours(sidecar) ${fromSidecar ? `${fromSidecar.classifiedType}/${fromSidecar.bids.suffix}${entities(fromSidecar)}` : 'no sidecar'}  BidsGuess ${guess ? guess.join(' ') : 'none'}${guessRight ? '' : ' ✗'}`,
    );
  }
  lines.push(
    `right (class and suffix): ours ${ours}/${series.length}, dcm2niix BidsGuess ${theirs}/${series.length} (suffix only); DICOM path = sidecar path on ${agree}/${series.length}`,
  );
  return lines;
}
