import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROCESS_STAGES, processStudy } from '#shared/processing/process-study.ts';
import { STUDY_TYPES } from '#shared/schemas/api/datasets.ts';
import {
  anonymizationFromFlags,
  DEIDENTIFICATION_FLAGS,
  secretFromEnvironment,
} from '#cli/lib/deidentification-flags.ts';
import { readInputFiles } from './convert.ts';

export const usage = `Usage: iws process <input> <outdir> [options]

Runs the whole dataset pipeline on a DICOM file or folder without any server: de-identify (PS3.15 Annex E Basic
Profile), classify, convert to NIfTI, thumbnails, a head surface (MZ3) from the best anatomical series, tensor fit,
FA / colour FA and deterministic tractography (.trk) for diffusion series with at least 6 directions, and a PDF report.
Writes the assets and manifest.json to <outdir>; prints the manifest as JSON. Exit status 1 when no series was
converted; files that are not DICOM are listed in the manifest and skipped.

Options:
  --id <text>            dataset id shown in the report (default: the input folder's name)
  --alias <text>         patient alias shown in the report (default: none)
  --study-type <type>    ${STUDY_TYPES.join(' | ')} (default RESEARCH)
  --hospital-name <text> hospital shown in the report
  --department <text>    department shown in the report
  --retain-physician, --retain-institution, --retain-uids, --retain-dates, --keep-private,
  --keep-all-private, --remove-private
                         de-identification options, as for iws anonymize
  --hospital <id>        hospital the keyed UIDs belong to (default "cli")

Environment:
  IWS_SECRET             key for UID replacement; without it a fixed development secret is used
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      alias: { type: 'string', default: '' },
      'study-type': { type: 'string', default: 'RESEARCH' },
      'hospital-name': { type: 'string' },
      department: { type: 'string', default: '' },
      ...DEIDENTIFICATION_FLAGS,
    },
  });
  const [input, outdir] = positionals;
  if (!input || !outdir || positionals.length > 2) {
    process.stderr.write(usage);
    return 2;
  }
  const studyType = values['study-type']!.toUpperCase();
  if (!(STUDY_TYPES as readonly string[]).includes(studyType)) {
    process.stderr.write(`iws process: --study-type must be one of ${STUDY_TYPES.join(', ')}\n`);
    return 2;
  }
  const secret = secretFromEnvironment('process');
  const anonymization = anonymizationFromFlags(values);
  const files = readInputFiles(input);
  const result = await processStudy(files, {
    secret,
    hospitalId: values.hospital!,
    anonymization,
    dataset: {
      id: values.id ?? basename(resolve(input)),
      patientAlias: values.alias!,
      studyType,
      clinicalIndication: '',
      orderingPhysician: '',
      department: values.department!,
      createdAt: new Date().toISOString(),
      ...(values['hospital-name'] ? { hospitalName: values['hospital-name'] } : {}),
    },
    onStage: (stage, ms) => process.stderr.write(`iws process: ${stage} ${(ms / 1000).toFixed(2)} s\n`),
  });
  mkdirSync(outdir, { recursive: true });
  const used = new Set<string>();
  const assets = result.assets.map((asset) => {
    let name = asset.fileName;
    for (let copy = 2; used.has(name); copy += 1) name = asset.fileName.replace(/^([^.]+)/, `$1_${copy}`);
    used.add(name);
    const path = resolve(join(outdir, name));
    writeFileSync(path, asset.bytes);
    return {
      type: asset.type,
      label: asset.label,
      path,
      byteSize: asset.bytes.length,
      mimeType: asset.mimeType,
      seriesNumber: asset.seriesNumber ?? null,
      metadata: asset.metadata,
    };
  });
  const manifest = {
    input: resolve(input),
    series: result.series.map((s) => ({
      seriesNumber: s.seriesNumber,
      seriesInstanceUID: s.seriesInstanceUID,
      description: s.description,
      modality: s.modality,
      fileCount: s.fileCount,
      classifiedType: s.classification.classifiedType,
      confidence: s.classification.confidence,
      lowConfidence: s.classification.lowConfidence,
      bids: s.classification.bids,
      volumes: s.outputs.length,
    })),
    assets,
    skipped: result.skipped,
    notes: result.notes,
    deidentification: result.deidentification,
    timings: Object.fromEntries(
      PROCESS_STAGES.map((stage) => [
        stage,
        Number(((result.timings.find((t) => t.stage === stage)?.ms ?? 0) / 1000).toFixed(3)),
      ]),
    ),
  };
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
  if (result.series.every((s) => s.outputs.length === 0)) {
    process.stderr.write('iws process: no DICOM series could be converted\n');
    return 1;
  }
  return 0;
}
