import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import { datasetPrefix, ObjectKeyError, uploadKeys } from '#shared/domain/object-keys.ts';
import { runPipelineStages, type StageState, type StagesOutcome } from '#shared/domain/pipeline/stages.ts';
import { PIPELINE_TASKS } from '#shared/definitions/state-machine.ts';
import { isHeldForBurnedInText, type Dataset } from '#shared/schemas/api/datasets.ts';
import { STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import {
  anonymizationFromFlags,
  DEIDENTIFICATION_FLAGS,
  secretFromEnvironment,
} from '#cli/lib/deidentification-flags.ts';
import { createFolderObjectStore } from '#cli/lib/folder-object-store.ts';
import { createLocalStageDeps } from '#cli/lib/local-stage-deps.ts';
import { readInputFiles } from './convert.ts';

export const usage = `Usage: iws process <input> <outdir> [options]

Runs the dataset pipeline on a DICOM file or folder without any server: the same stages, in the same order, as the
cloud's state machine (${PIPELINE_TASKS.map((t) => t.state).join(' → ')}). <outdir> stands in for the buckets:
<outdir>/studies holds the de-identified DICOM, <outdir>/assets the volumes, thumbnails, surface, FA maps, tracts and
report under the same keys the cloud uses. Writes manifest.json to <outdir> and prints it. Exit status 1 when the
pipeline fails or no series was converted; files that are not DICOM are listed in the manifest and skipped. A series
that may carry burned-in text (burned-in annotation, secondary capture, screen save, encapsulated document) is held:
it is listed, but not converted or shown in the report.

Options:
  --id <id>              dataset id (letters, digits, '-', '_'; default: a new random id)
  --alias <text>         patient alias shown in the report (default: none)
  --description <text>   study description shown in the report (default: none)
  --study-type <type>    ${STUDY_TYPES.join(' | ')} (default RESEARCH)
  --hospital-name <text> hospital shown in the report when --retain-institution is given
  --department <text>    department shown in the report when --retain-institution is given
  --physician <text>     ordering physician shown in the report when --retain-physician is given
  --retain-physician, --retain-institution, --retain-uids, --retain-dates, --keep-private,
  --keep-all-private, --remove-private
                         de-identification options, as for iws anonymize
  --hospital <id>        hospital the keyed UIDs and the keys belong to (default "cli")

Environment:
  IWS_SECRET             key for UID replacement; without it, this machine's own random secret,
                         made once and kept in $XDG_CONFIG_HOME/iws/secret (else ~/.config/iws/secret)
`;

export type ProcessContext = {
  hospitalId: string;
  datasetId: string;
  hospitalName?: string;
  anonymization: AnonymizationOptions;
  secret: string;
  dataset: Pick<
    Dataset,
    'patientAlias' | 'studyType' | 'studyDescription' | 'department' | 'orderingPhysician' | 'clinicalIndication'
  >;
};

/**
 * One dataset through the pipeline stages over a folder (the buckets) and in-memory repositories. Used by `iws
 * process` and bench/pipeline.ts. The input files become raw uploads named by their index, as the upload API stores
 * them; nothing of their names goes further.
 */
export async function processFiles(
  files: { name: string; bytes: Uint8Array }[],
  outdir: string,
  context: ProcessContext,
  onStage?: (state: StageState, ms: number) => void,
) {
  const { hospitalId, datasetId } = context;
  const objects = createFolderObjectStore(outdir);
  const now = new Date().toISOString();
  const deps = createLocalStageDeps({
    objects,
    secret: context.secret,
    ...(context.hospitalName
      ? { hospital: { id: hospitalId, slug: hospitalId, name: context.hospitalName, createdAt: now, updatedAt: now } }
      : {}),
  });
  // A second run into the same folder starts from a clean dataset prefix, as a new dataset would.
  for (const bucket of ['uploads', 'studies', 'assets'] as const)
    await objects.deletePrefix(bucket, datasetPrefix(hospitalId, datasetId));
  for (const [index, file] of files.entries())
    await objects.put('uploads', uploadKeys.file(hospitalId, datasetId, index), file.bytes);
  const dataset: DatasetRecord = {
    id: datasetId,
    hospitalId,
    teamId: null,
    ownerUserId: 'cli',
    ownerName: 'iws process',
    ...context.dataset,
    urgency: 'ROUTINE',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: context.anonymization,
    status: 'UPLOADING',
    sizeBytes: files.reduce((sum, f) => sum + f.bytes.byteLength, 0),
    fileCount: files.length,
    seriesCount: 0,
    createdAt: now,
    updatedAt: now,
    searchText: '',
  };
  await deps.datasets.create(dataset);
  const outcome = await runPipelineStages({ hospitalId, datasetId, runId: randomUUID() }, deps, onStage);
  return {
    outcome,
    dataset: (await deps.datasets.get(hospitalId, datasetId))!,
    series: (await deps.datasets.listSeries(hospitalId, datasetId)).sort((a, b) => a.seriesNumber - b.seriesNumber),
    assets: (await deps.datasets.listAssets(hospitalId, datasetId)).sort((a, b) =>
      a.objectKey.localeCompare(b.objectKey),
    ),
    pathOf: objects.pathOf,
  };
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      alias: { type: 'string', default: '' },
      description: { type: 'string', default: '' },
      'study-type': { type: 'string', default: 'RESEARCH' },
      'hospital-name': { type: 'string' },
      department: { type: 'string', default: '' },
      physician: { type: 'string', default: '' },
      ...DEIDENTIFICATION_FLAGS,
    },
  });
  const [input, outdir] = positionals;
  if (!input || !outdir || positionals.length > 2) {
    process.stderr.write(usage);
    return 2;
  }
  const studyType = values['study-type']!.toUpperCase() as Dataset['studyType'];
  if (!(STUDY_TYPES as readonly string[]).includes(studyType)) {
    process.stderr.write(`iws process: --study-type must be one of ${STUDY_TYPES.join(', ')}\n`);
    return 2;
  }
  const hospitalId = values.hospital!;
  const datasetId = values.id ?? randomUUID();
  try {
    datasetPrefix(hospitalId, datasetId);
  } catch (error) {
    if (!(error instanceof ObjectKeyError)) throw error;
    process.stderr.write('iws process: --id and --hospital take letters, digits, "-" and "_" only\n');
    return 2;
  }
  const secret = secretFromEnvironment('process');
  const files = readInputFiles(input);
  const timings: Partial<Record<StageState, number>> = {};
  const result = await processFiles(
    files,
    outdir,
    {
      hospitalId,
      datasetId,
      secret,
      anonymization: anonymizationFromFlags(values),
      ...(values['hospital-name'] ? { hospitalName: values['hospital-name'] } : {}),
      dataset: {
        patientAlias: values.alias!,
        studyType,
        studyDescription: values.description!,
        clinicalIndication: '',
        orderingPhysician: values.physician!,
        department: values.department!,
      },
    },
    (state, ms) => {
      timings[state] = Number((ms / 1000).toFixed(3));
      process.stderr.write(`iws process: ${state} ${(ms / 1000).toFixed(2)} s\n`);
    },
  );
  const manifest = {
    dataset: {
      id: datasetId,
      hospitalId,
      status: result.dataset.status,
      ...(result.dataset.failureReason ? { failureReason: result.dataset.failureReason } : {}),
    },
    series: result.series.map((s) => ({
      seriesId: s.id,
      seriesNumber: s.seriesNumber,
      modality: s.modality,
      sliceCount: s.sliceCount,
      classifiedType: s.classification?.classifiedType ?? null,
      confidence: s.classification?.confidence ?? null,
      lowConfidence: s.lowConfidence ?? false,
      bids: s.classification?.bids ?? null,
      heldForBurnedInText: isHeldForBurnedInText(s),
      ...(s.burnedInText ? { burnedInText: s.burnedInText.reasons } : {}),
      // A series whose own stages failed: the others went on (docs/pipeline.md#series-in-parallel).
      ...(s.failureReason ? { failureReason: s.failureReason } : {}),
    })),
    assets: result.assets.map((a) => ({
      id: a.id,
      type: a.type,
      label: a.label,
      key: a.objectKey,
      path: resolve(result.pathOf(a.bucket, a.objectKey)),
      byteSize: a.byteSize,
      mimeType: a.mimeType,
      seriesId: a.seriesId ?? null,
      metadata: a.metadata,
    })),
    // The user's own input listing: which of their files was skipped, and why.
    skipped: (result.dataset.fileErrors ?? []).map((e) => ({
      file: files[e.fileIndex]?.name ?? '',
      reason: e.message,
    })),
    timings,
  };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(outdir, 'manifest.json'), text);
  process.stdout.write(text);
  const volumes = result.assets.filter((a) => a.type === 'VOLUME').length;
  const held = manifest.series.filter((s) => s.heldForBurnedInText).length;
  if (held > 0) process.stderr.write(`iws process: ${held} series held for possible burned-in text\n`);
  return exitStatus(result.outcome, volumes + held);
}

function exitStatus(outcome: StagesOutcome, seriesAccountedFor: number): number {
  if (!outcome.ok) {
    process.stderr.write(`iws process: ${outcome.state} failed: ${outcome.reason}\n`);
    return 1;
  }
  if (seriesAccountedFor === 0) {
    process.stderr.write('iws process: no DICOM series could be converted\n');
    return 1;
  }
  return 0;
}
