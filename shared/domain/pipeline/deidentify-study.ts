import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { DicomParseError } from '#shared/dicom/errors.ts';
import { packHeaders } from '#shared/dicom/header-bundle.ts';
import { readSeriesFileMetadata, type SeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { groupIntoSeries } from '#shared/dicom/series.ts';
import { withoutPixelData } from '#shared/dicom/parse.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { PIPELINE_ACTOR, type SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { complianceDeltas } from '#shared/domain/dashboards/counters.ts';
import { NoValidDicomError } from '#shared/domain/errors.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import { studyKeys, uploadKeys } from '#shared/domain/object-keys.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { BurnedInTextReason } from '#shared/vocabulary/datasets.ts';
import { readStudyInput } from '#shared/domain/uploads/study-input.ts';
import { indexItemsOf } from '#shared/domain/intake/dicom-index.ts';
import { burnedInTextReasons } from './burned-in-text.ts';
import { enterStage, type PipelineDeps, type StageInput } from './deps.ts';
import { counterName, moveReportCounts } from '#shared/domain/reports/counters.ts';

/** Raw files worked on at once: their object writes overlap while memory stays at a few files (docs/pipeline.md#de-identify). */
export const DEIDENTIFY_CONCURRENCY = 8;

type FileOutcome =
  | { fileIndex: number; message: string }
  | { file: SeriesFileMetadata; reasons: BurnedInTextReason[]; summary: unknown; key: string; header: Uint8Array };

/**
 * ANONYMIZING: each raw file (taken out of the upload's archive by shared/domain/uploads/study-input.ts, in index
 * order), up to DEIDENTIFY_CONCURRENCY at a time (memory stays at a few files): validity check (bad files are recorded
 * with their per-file message and skipped, see docs/pipeline.md#validate), de-identification with the dataset's options and the
 * deployment's secret, the copy written to the studies bucket under its series and instance UIDs (a copy whose UIDs
 * are not valid PS3.5 UIDs is rejected like a file that does not parse). Outcomes are gathered in index order, so the
 * result is the same as one file at a time. Then the series items are written, a series
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

  async function deidentifyFile(fileIndex: number, bytes: Uint8Array): Promise<FileOutcome> {
    const check = checkDicom(bytes);
    if (!check.valid) return { fileIndex, message: check.message };
    let result: Awaited<ReturnType<typeof deidentifyDicom>>;
    try {
      result = await deidentifyDicom(bytes, { secret, hospitalId, options: dataset.anonymization });
    } catch (error) {
      // A file over the engine's limits (or one only the rewriter finds broken) is rejected on its own, like any
      // other bad file; its message is the catalogue's, never the file's text.
      if (!(error instanceof DicomParseError)) throw error;
      return { fileIndex, message: error.message };
    }
    // Retained UIDs come from the file as it was sent: only valid ones may name an object.
    if (!isDicomUid(result.seriesInstanceUID) || !isDicomUid(result.sopInstanceUID))
      return { fileIndex, message: catalogueMessage('DICOM_PARSE_FAILED') };
    const key = studyKeys.instance(hospitalId, datasetId, result.seriesInstanceUID, result.sopInstanceUID);
    const parsed = checkDicom(result.bytes);
    if (!parsed.valid) throw new Error('De-identified copy does not parse');
    const file = readSeriesFileMetadata(parsed.parsed, `${result.sopInstanceUID}.dcm`, result.bytes.byteLength);
    const reasons = burnedInTextReasons(parsed.parsed);
    if (result.burnedInAnnotation && !reasons.includes('BURNED_IN_ANNOTATION')) reasons.push('BURNED_IN_ANNOTATION');
    await deps.objects.put('studies', key, result.bytes, 'application/dicom');
    // The header only (a copy, a few KiB; a deflated file stays whole): the pixels are not kept for the bundle.
    return { file, reasons, summary: result.summary, key, header: withoutPixelData(parsed.parsed, result.bytes) };
  }

  // Files are taken out of the archive one after another; their work overlaps, at most DEIDENTIFY_CONCURRENCY at once.
  const outcomes: FileOutcome[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for await (const { fileIndex, bytes } of raw.files()) {
    if (failure) break;
    const slot = outcomes.length;
    outcomes.length = slot + 1;
    const task: Promise<void> = deidentifyFile(fileIndex, bytes)
      .then(
        (outcome) => {
          outcomes[slot] = outcome;
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
    if (inFlight.size >= DEIDENTIFY_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;

  const fileErrors: { fileIndex: number; message: string }[] = [];
  const metadata: SeriesFileMetadata[] = [];
  const burnedIn = new Map<string, Set<BurnedInTextReason>>();
  /** Per series, header by object key: a later file with the same instance UID replaced the object, and its header. */
  const headers = new Map<string, Map<string, Uint8Array>>();
  /** Size of each stored copy by object key (the DICOMweb index keeps it). */
  const sizes = new Map<string, number>();
  let summary: unknown;
  for (const outcome of outcomes) {
    if ('message' in outcome) {
      fileErrors.push(outcome);
      continue;
    }
    const { file, reasons } = outcome;
    metadata.push(file);
    const seriesHeaders = headers.get(file.seriesInstanceUID) ?? new Map<string, Uint8Array>();
    seriesHeaders.set(outcome.key, outcome.header);
    sizes.set(outcome.key, file.fileSize);
    headers.set(file.seriesInstanceUID, seriesHeaders);
    if (reasons.length > 0) {
      const series = burnedIn.get(file.seriesInstanceUID) ?? new Set();
      reasons.forEach((reason) => series.add(reason));
      burnedIn.set(file.seriesInstanceUID, series);
    }
    summary ??= outcome.summary;
  }
  if (!raw.empty && metadata.length === 0) throw new NoValidDicomError();

  const now = deps.clock.now();
  const groups = groupIntoSeries(metadata);
  // Each series' headers in one object, in the order a listing of its files gives (key order), so classification
  // reads one object per series (docs/pipeline.md#series-headers).
  await Promise.all(
    [...headers].map(([seriesUID, byKey]) =>
      deps.objects.put(
        'studies',
        studyKeys.seriesHeaders(hospitalId, datasetId, seriesUID),
        packHeaders([...byKey.keys()].sort().map((key) => byKey.get(key)!)),
        'application/octet-stream',
      ),
    ),
  );
  // Series items are independent: written side by side.
  const series = groups.map((group): SeriesRecord => {
    const reasons = burnedIn.get(group.seriesInstanceUID);
    return {
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
    };
  });
  await Promise.all(series.map((s) => deps.datasets.putSeries(s)));
  // Entered in the DICOMweb index (docs/dicom-intake.md#the-dicomweb-index) from the headers just written, before the
  // stage is marked done, so a retry after a failure here indexes again.
  if (deps.dicomIndex) {
    const seriesFiles = new Map(
      [...headers].map(([seriesUID, byKey]) => [
        seriesUID,
        [...byKey.keys()].sort().map((key) => ({
          key,
          size: sizes.get(key) ?? 0,
          header: byKey.get(key)!,
        })),
      ]),
    );
    await deps.dicomIndex.put(indexItemsOf(dataset, seriesFiles));
  }
  const sizeBytes = metadata.reduce((sum, f) => sum + f.fileSize, 0);
  await deps.datasets.update(
    hospitalId,
    datasetId,
    { deidentifiedAt: now, fileErrors, seriesCount: groups.length, updatedAt: now, sizeBytes },
    ['ANONYMIZING'],
  );
  // The report counters hold the study's bytes as they are now (docs/domain.md#report-counters), and the compliance
  // center's counters (docs/domain.md#counters) its de-identification: both counted once, as a rerun stops at
  // deidentifiedAt.
  if (deps.organisation)
    await moveReportCounts(deps.organisation, dataset, { [counterName.bytes]: sizeBytes - dataset.sizeBytes });
  await deps.organisation?.add(
    hospitalId,
    { kind: 'hospital' },
    complianceDeltas({ deidentifiedAt: now, anonymization: dataset.anonymization }, series, 1),
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
