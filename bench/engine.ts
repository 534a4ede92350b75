/**
 * The engine benchmark, in one run on the shared 196-file GE T1 (../shared/data/dicom/ge-t1-ir-spgr/dicom):
 *   - de-identification throughput next to a plain copy of the same bytes and next to gdcmanon (Debian libgdcm-tools);
 *   - conversion time (shared/dicom/convert.ts, dcm2niix's WASM build) next to the native Debian dcm2niix;
 *   - classification time per series (shared/dicom/classify).
 * Machines are noisy: every figure is the median (and the best) of interleaved runs, and the verdicts are ratios
 * measured in the same run, of medians and of bests, against its aims (de-identification within 5x of the plain copy, conversion within 3x of native dcm2niix).
 * A missing reference tool is reported, not hidden. Not a test: it prints, it does not assert.
 * Run: npm run bench:engine [-- --runs N] [--folder <dicom folder>]
 */
import { parseArgs } from 'node:util';
import { timeSeriesClassification } from './lib/classify.ts';
import { measureConversion } from './lib/convert.ts';
import {
  formatTable,
  GDCMANON,
  GE_T1_FOLDER,
  median,
  ms,
  NATIVE_DCM2NIIX,
  ratio,
  ratioAgainstAim,
} from './lib/data.ts';
import { measureDeidentification, throughput } from './lib/deidentify.ts';

const AIM_DEIDENTIFY_VS_COPY = 5;
const AIM_CONVERT_VS_NATIVE = 3;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, folder: { type: 'string', default: GE_T1_FOLDER } },
});
const runs = Math.max(1, Number(values.runs) || 5);
const folder = values.folder;

const deid = measureDeidentification(folder, runs);
const convert = await measureConversion(folder, runs);
const classify = timeSeriesClassification(folder);

const mib = deid.bytes / 1048576;
process.stdout.write(
  `input: ${folder}\n${deid.files} files, ${mib.toFixed(1)} MiB; median and best of ${runs} interleaved runs per tool\n\n`,
);

// De-identification: read, process and write every file.
const copyMs = median(deid.plainCopyMs);
const engineDeidMs = median(deid.engineMs);
const gdcmMs = deid.gdcmanonMs ? median(deid.gdcmanonMs) : undefined;
const deidRow = (label: string, times: number[], versusEngine: string): string[] => {
  const { filesPerSecond, mibPerSecond } = throughput(deid, times);
  return [
    label,
    ms(median(times)),
    `${filesPerSecond.toFixed(0)}`,
    `${mibPerSecond.toFixed(1)}`,
    versusEngine,
    times.map((t) => t.toFixed(0)).join(', '),
  ];
};
process.stdout.write('De-identification (read + process + write each file)\n');
process.stdout.write(
  `${formatTable(
    ['tool', 'median', 'files/s', 'MiB/s', 'iws / tool', 'runs (ms)'],
    [
      deidRow('plain copy (read + write)', deid.plainCopyMs, ratio(engineDeidMs / copyMs)),
      deidRow('iws deidentifyDicom (Annex E basic + options)', deid.engineMs, ratio(1)),
      ...(deid.gdcmanonMs && gdcmMs !== undefined
        ? [deidRow('gdcmanon --dumb (3 attributes only)', deid.gdcmanonMs, ratio(engineDeidMs / gdcmMs))]
        : [['gdcmanon', `not installed at ${GDCMANON} (apt-get install libgdcm-tools)`, '', '', '', '']]),
    ],
  )}\n\n`,
);

// Conversion.
const wasmMs = median(convert.wasmMs);
const nativeMs = convert.nativeMs ? median(convert.nativeMs) : undefined;
process.stdout.write(
  `Conversion to NIfTI (${convert.outputs.map((o) => `${o.baseName}.nii.gz ${(o.niftiBytes / 1e6).toFixed(1)} MB`).join(', ') || 'no output'})\n`,
);
process.stdout.write(
  `${formatTable(
    ['tool', 'median', 'iws / tool', 'runs (ms)'],
    [
      [
        'iws convertToNifti (dcm2niix WASM + gzip, reads files)',
        ms(wasmMs),
        ratio(1),
        convert.wasmMs.map((t) => t.toFixed(0)).join(', '),
      ],
      ['  WASM module load, once per process (not in the runs)', ms(convert.wasmLoadMs), '', ''],
      ...(convert.nativeMs && nativeMs !== undefined
        ? [
            [
              `native dcm2niix ${convert.nativeVersion} (-z y, pigz)`,
              ms(nativeMs),
              ratio(wasmMs / nativeMs),
              convert.nativeMs.map((t) => t.toFixed(0)).join(', '),
            ],
          ]
        : [['native dcm2niix', `not installed at ${NATIVE_DCM2NIIX} (apt-get install dcm2niix)`, '', '']]),
    ],
  )}\n\n`,
);

// Classification.
process.stdout.write(
  `Classification (one series, ${classify.files} files): ${classify.result.classifiedType}, confidence ${classify.result.confidence}\n`,
);
process.stdout.write(
  `${formatTable(
    ['step', 'time'],
    [
      ['read the files from disk', ms(classify.readFilesMs)],
      ['acquisitionFromDicom (parse every header)', ms(classify.acquisitionMs)],
      [`classifySeries (mean of ${classify.repeats})`, `${classify.classifyUs.toFixed(1)} µs`],
      ['per series, end to end', ms(classify.readFilesMs + classify.acquisitionMs + classify.classifyUs / 1000)],
    ],
  )}\n\n`,
);

// Verdicts against the issue's aims.
process.stdout.write('Ratios against the aims (same run)\n');
const best = (times: number[]) => Math.min(...times);
process.stdout.write(
  `  de-identification / plain copy: median ${ratioAgainstAim(engineDeidMs / copyMs, AIM_DEIDENTIFY_VS_COPY)}; best ${ratioAgainstAim(best(deid.engineMs) / best(deid.plainCopyMs), AIM_DEIDENTIFY_VS_COPY)}\n`,
);
process.stdout.write(
  gdcmMs !== undefined
    ? `  de-identification / gdcmanon:   median ${ratio(engineDeidMs / gdcmMs)}; best ${ratio(best(deid.engineMs) / best(deid.gdcmanonMs!))} (no aim; gdcmanon --dumb touches 3 attributes, the engine the whole Annex E table)\n`
    : '  de-identification / gdcmanon:   gdcmanon not installed\n',
);
process.stdout.write(
  nativeMs !== undefined
    ? `  conversion / native dcm2niix:   median ${ratioAgainstAim(wasmMs / nativeMs, AIM_CONVERT_VS_NATIVE)}; best ${ratioAgainstAim(best(convert.wasmMs) / best(convert.nativeMs!), AIM_CONVERT_VS_NATIVE)}\n`
    : '  conversion / native dcm2niix:   native dcm2niix not installed: no verdict\n',
);
