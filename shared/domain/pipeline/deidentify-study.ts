import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { DicomParseError } from '#shared/dicom/errors.ts';
import { readSeriesFileMetadata, type SeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { groupIntoSeries } from '#shared/dicom/series.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { NoValidDicomError } from '#shared/domain/errors.ts';
import { catalogueMessage } from '#shared/schemas/api/errors.ts';
import { studyKeys, uploadKeys } from '#shared/domain/object-keys.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { BurnedInTextReason } from '#shared/schemas/api/datasets.ts';
import { readStudyInput } from '#shared/domain/uploads/study-input.ts';
import { burnedInTextReasons } from './burned-in-text.ts';
import { enterStage, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * ANONYMIZING: each raw file (taken out of the upload's archive by shared/domain/uploads/study-input.ts), one at a
 * time (memory stays at one file): validity check (bad files are recorded
 * with their per-file message and skipped, see docs/pipeline.md#validate), de-identification with the dataset's options and the
 * deployment's secret, the copy written to the studies bucket under its series and instance UIDs (a copy whose UIDs
 * are not valid PS3.5 UIDs is rejected like a file that does not parse). Then the series items are written, a series
 * that may carry burned-in text flagged to be held, and the raw uploads deleted. A retry after that point changes
 * nothing.
 */
export async function deidentifyStudy(input: StageInput, deps: PipelineDeps): Promise<void> {
  const dataset = await enterStage(deps, input, 'UPLOADING', 'ANONYMIZING');
  if (dataset.deidentifiedAt) return;
  const { hospitalId, datasetId } = input;
  const secret = await deps.pseudonymSecret();
  const raw = await readStudyInput(deps.objects, hospitalId, datasetId);
  if (raw.empty) {
    const stored = await deps.objects.list('studies', studyKeys.prefix(hospitalId, datasetId));
    if (stored.length === 0) throw new NoValidDicomError();
  }

  const fileErrors: { fileIndex: number; message: string }[] = [];
  const metadata: SeriesFileMetadata[] = [];
  const burnedIn = new Map<string, Set<BurnedInTextReason>>();
  let summary: unknown;
  for await (const { fileIndex, bytes } of raw.files()) {
    const check = checkDicom(bytes);
    if (!check.valid) {
      fileErrors.push({ fileIndex, message: check.message });
      continue;
    }
    let result: Awaited<ReturnType<typeof deidentifyDicom>>;
    try {
      result = await deidentifyDicom(bytes, { secret, hospitalId, options: dataset.anonymization });
    } catch (error) {
      // A file over the engine's limits (or one only the rewriter finds broken) is rejected on its own, like any
      // other bad file; its message is the catalogue's, never the file's text.
      if (!(error instanceof DicomParseError)) throw error;
      fileErrors.push({ fileIndex, message: error.message });
      continue;
    }
    // Retained UIDs come from the file as it was sent: only valid ones may name an object.
    if (!isDicomUid(result.seriesInstanceUID) || !isDicomUid(result.sopInstanceUID)) {
      fileErrors.push({ fileIndex, message: catalogueMessage('DICOM_PARSE_FAILED') });
      continue;
    }
    const key = studyKeys.instance(hospitalId, datasetId, result.seriesInstanceUID, result.sopInstanceUID);
    await deps.objects.put('studies', key, result.bytes, 'application/dicom');
    const parsed = checkDicom(result.bytes);
    if (!parsed.valid) throw new Error('De-identified copy does not parse');
    const file = readSeriesFileMetadata(parsed.parsed, `${result.sopInstanceUID}.dcm`, result.bytes.byteLength);
    metadata.push(file);
    const reasons = burnedInTextReasons(parsed.parsed);
    if (result.burnedInAnnotation && !reasons.includes('BURNED_IN_ANNOTATION')) reasons.push('BURNED_IN_ANNOTATION');
    if (reasons.length > 0) {
      const series = burnedIn.get(file.seriesInstanceUID) ?? new Set();
      reasons.forEach((reason) => series.add(reason));
      burnedIn.set(file.seriesInstanceUID, series);
    }
    summary ??= result.summary;
  }
  if (!raw.empty && metadata.length === 0) throw new NoValidDicomError();

  const now = deps.clock.now();
  const groups = groupIntoSeries(metadata);
  for (const group of groups) {
    const reasons = burnedIn.get(group.seriesInstanceUID);
    await deps.datasets.putSeries({
      id: group.seriesInstanceUID,
      datasetId,
      hospitalId,
      seriesInstanceUID: group.seriesInstanceUID,
      studyInstanceUID: group.files[0]?.studyInstanceUID,
      description: group.seriesDescription,
      seriesNumber: group.seriesNumber,
      modality: group.modality,
      sliceCount: group.fileCount,
      fileCount: group.fileCount,
      sizeBytes: group.totalSize,
      selected: true,
      classification: null,
      ...(reasons ? { burnedInText: { reasons: [...reasons].sort() } } : {}),
      createdAt: now,
    });
  }
  await deps.datasets.update(
    hospitalId,
    datasetId,
    {
      deidentifiedAt: now,
      fileErrors,
      seriesCount: groups.length,
      updatedAt: now,
      sizeBytes: metadata.reduce((sum, f) => sum + f.fileSize, 0),
    },
    ['ANONYMIZING'],
  );
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'DATASET_DEIDENTIFIED',
    ...PIPELINE_ACTOR,
    details: {
      runId: input.runId,
      files: metadata.length,
      rejectedFiles: fileErrors.length,
      series: groups.length,
      seriesHeldForBurnedInText: burnedIn.size,
      options: dataset.anonymization,
      profile: summary ?? null,
    },
  });
  // Raw uploads go only once the de-identified copies and the series items are safely stored.
  await deps.objects.deletePrefix('uploads', uploadKeys.prefix(hospitalId, datasetId));
}
