import { DicomParseError } from '#shared/dicom/errors.ts';
import { packHeaders, unpackHeaders } from '#shared/dicom/header-bundle.ts';
import { parseDicom, withoutPixelData } from '#shared/dicom/parse.ts';
import {
  PixelDataNotNativeError,
  readPixelLayout,
  redactInstance,
  renderFramePng,
  type PixelLayout,
} from '#shared/dicom/pixels.ts';
import { isLeadOrAdmin, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import { READ_WINDOW_SECONDS } from '#shared/domain/audit/record-read.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { isHeldForBurnedInText, type Series } from '#shared/schemas/api/datasets.ts';
import type { RedactSeriesRequest, SeriesPreview } from '#shared/schemas/api/redaction.ts';
import { countSeriesRelease } from '#shared/domain/dashboards/counters.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRecord, DatasetRepository, PipelineStarter, SeriesRecord } from './ports.ts';
import { reprocessAfterRelease } from './release-series.ts';
import { toSeries } from './view.ts';

/**
 * The longest edge of a preview PNG: a 1024 x 1024 RGB frame stays under the 6 MB a function may answer, base64
 * included; a larger image is shown subsampled (its width and height in the answer stay the image's).
 */
export const PREVIEW_MAX_EDGE = 1024;
/** Instances rewritten at once: their reads and writes overlap while memory stays at a few files. */
const REDACT_CONCURRENCY = 4;

type StoredInstance = { key: string; layout: PixelLayout };

/**
 * The held series the caller may decide on: the same rule as release (a lead of the dataset's team or an admin of
 * its hospital; anyone else of the hospital who sees the dataset is refused, everyone else finds no dataset).
 */
async function heldSeriesFor(
  caller: Caller,
  datasetId: string,
  seriesId: string,
  deps: { datasets: DatasetRepository },
): Promise<{ dataset: DatasetRecord; series: SeriesRecord; othersStillHeld: boolean }> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  if (!isLeadOrAdmin(caller)) throw new AccessDeniedError();
  const all = await deps.datasets.listSeries(caller.hospitalId, datasetId);
  const series = all.find((s) => s.id === seriesId);
  if (!series) throw new NotFoundError('SERIES_NOT_FOUND');
  if (!isHeldForBurnedInText(series)) throw new InvalidStateError('SERIES_NOT_HELD');
  return { dataset, series, othersStillHeld: all.some((s) => s.id !== seriesId && isHeldForBurnedInText(s)) };
}

function layoutOrRefuse(bytes: Uint8Array): PixelLayout {
  try {
    return readPixelLayout(bytes);
  } catch (error) {
    if (error instanceof PixelDataNotNativeError || error instanceof DicomParseError)
      throw new InvalidStateError('SERIES_NOT_REDACTABLE');
    throw error;
  }
}

/**
 * The series' stored instances (the de-identified copies, docs/pipeline.md#de-identify) with their pixel layout, in
 * InstanceNumber order (then key order). Layouts come from the series header bundle, one object, when it names every
 * instance; else each instance is read.
 * @throws InvalidStateError SERIES_NOT_REDACTABLE when any instance is compressed.
 */
async function storedInstances(
  objects: ObjectStore,
  hospitalId: string,
  datasetId: string,
  seriesId: string,
): Promise<StoredInstance[]> {
  const keys = (await objects.list('studies', studyKeys.series(hospitalId, datasetId, seriesId)))
    .map((entry) => entry.key)
    .filter((key) => key.endsWith('.dcm'))
    .sort();
  if (keys.length === 0) throw new NotFoundError('SERIES_NOT_FOUND');
  const headers = await objects
    .get('studies', studyKeys.seriesHeaders(hospitalId, datasetId, seriesId))
    .then(unpackHeaders)
    .catch((): Uint8Array[] => []);
  const instances: StoredInstance[] = [];
  for (const [index, key] of keys.entries()) {
    const bytes = headers.length === keys.length ? headers[index]! : await objects.get('studies', key);
    instances.push({ key, layout: layoutOrRefuse(bytes) });
  }
  const order = (i: StoredInstance) => i.layout.instanceNumber ?? Number.MAX_SAFE_INTEGER;
  return instances.sort((a, b) => order(a) - order(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * One frame of a held series for the person who may release it (docs/domain.md#held-series): frames are counted over
 * the series, instance after instance; each frame is rendered at the image's size from the stored de-identified
 * instance, so the reviewer sees exactly the pixels a release would let out. Audited SERIES_PREVIEWED as a read: once
 * per user, series and read window. Nothing is written to a bucket: the PNG goes back in the answer only.
 */
export async function previewSeries(
  datasetId: string,
  seriesId: string,
  frame: number,
  caller: Caller,
  deps: { datasets: DatasetRepository; objects: ObjectStore; audit: AuditLog; clock: Clock },
): Promise<SeriesPreview> {
  let series: SeriesRecord;
  try {
    ({ series } = await heldSeriesFor(caller, datasetId, seriesId, deps));
  } catch (error) {
    // A dataset the caller may not see was asked for: recorded as a refused read, as every read is.
    if (error instanceof NotFoundError && error.code === 'DATASET_NOT_FOUND')
      await deps.audit.record({
        hospitalId: caller.hospitalId,
        datasetId,
        action: 'SERIES_PREVIEWED',
        actorUserId: caller.userId,
        actorName: `${caller.firstName} ${caller.lastName}`,
        outcome: 'DENIED',
        details: { role: caller.role, seriesId },
      });
    throw error;
  }
  const instances = await storedInstances(deps.objects, caller.hospitalId, datasetId, series.id);
  const frameCount = instances.reduce((sum, i) => sum + i.layout.frames, 0);
  if (frame >= frameCount)
    throw new ValidationError('VALIDATION_FAILED', {}, [{ path: 'frame', message: 'No such frame' }]);
  let first = 0;
  const instance = instances.find((i) => {
    if (frame < first + i.layout.frames) return true;
    first += i.layout.frames;
    return false;
  })!;
  let rendered: ReturnType<typeof renderFramePng>;
  try {
    rendered = renderFramePng(await deps.objects.get('studies', instance.key), frame - first, PREVIEW_MAX_EDGE);
  } catch (error) {
    if (error instanceof PixelDataNotNativeError) throw new InvalidStateError('SERIES_NOT_REDACTABLE');
    throw error;
  }
  // A read of patient data (docs/domain.md#audit-trail): stepping through the frames is one review, recorded once per
  // user, series and read window; the window is claimed per series, so the review of another series is recorded too.
  const firstRead = await deps.audit.claimReadWindow({
    hospitalId: caller.hospitalId,
    actorUserId: caller.userId,
    datasetId,
    action: `SERIES_PREVIEWED#${series.id}`,
    at: deps.clock.now(),
    windowSeconds: READ_WINDOW_SECONDS,
  });
  if (firstRead)
    await deps.audit.record({
      hospitalId: caller.hospitalId,
      datasetId,
      action: 'SERIES_PREVIEWED',
      actorUserId: caller.userId,
      actorName: `${caller.firstName} ${caller.lastName}`,
      outcome: 'SUCCESS',
      details: { role: caller.role, seriesId, frame, frameCount },
    });
  return {
    seriesId,
    frame,
    frameCount,
    width: rendered.layout.columns,
    height: rendered.layout.rows,
    image: `data:image/png;base64,${Buffer.from(rendered.png).toString('base64')}`,
  };
}

/**
 * "Redact and release" (docs/domain.md#redaction): the rectangles are blanked (samples set to 0) in every frame of every
 * stored instance of the held series, each instance rewritten in place with its header recording the change, the
 * series header bundle rewritten to match; then the series is released with its `redactions` recorded, audited
 * (SERIES_REDACTED) and processed again as a release is. Every instance is checked first, so a compressed series is
 * refused (SERIES_NOT_REDACTABLE) before anything is written. The series stays held until every instance is written:
 * a failure half-way leaves it held, with more pixels blanked, never fewer, and the redaction can be asked again.
 */
export async function redactSeries(
  datasetId: string,
  seriesId: string,
  request: RedactSeriesRequest,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    objects: ObjectStore;
    audit: AuditLog;
    clock: Clock;
    ids: IdGenerator;
    pipeline: PipelineStarter;
    organisation: OrganisationCounters;
  },
): Promise<Series> {
  const { dataset, series, othersStillHeld } = await heldSeriesFor(caller, datasetId, seriesId, deps);
  if (dataset.status !== 'COMPLETE' && dataset.status !== 'FAILED') throw new InvalidStateError();
  const instances = await storedInstances(deps.objects, caller.hospitalId, datasetId, series.id);

  const headers = new Map<string, Uint8Array>();
  const queue = [...instances];
  async function worker(): Promise<void> {
    for (let next = queue.shift(); next; next = queue.shift()) {
      let redacted: Uint8Array;
      try {
        redacted = redactInstance(await deps.objects.get('studies', next.key), request.rectangles);
      } catch (error) {
        if (error instanceof PixelDataNotNativeError) throw new InvalidStateError('SERIES_NOT_REDACTABLE');
        throw error;
      }
      await deps.objects.put('studies', next.key, redacted, 'application/dicom');
      headers.set(next.key, withoutPixelData(parseDicom(redacted), redacted));
    }
  }
  await Promise.all(Array.from({ length: Math.min(REDACT_CONCURRENCY, instances.length) }, worker));
  // The bundle in key order, as the de-identify stage writes it (docs/pipeline.md#series-headers).
  await deps.objects.put(
    'studies',
    studyKeys.seriesHeaders(caller.hospitalId, datasetId, series.id),
    packHeaders([...headers.keys()].sort().map((key) => headers.get(key)!)),
    'application/octet-stream',
  );

  const actor = { actorUserId: caller.userId, actorName: `${caller.firstName} ${caller.lastName}` };
  const updated = await deps.datasets.updateSeries(caller.hospitalId, datasetId, series.id, {
    burnedInText: {
      ...series.burnedInText!,
      releasedAt: deps.clock.now(),
      releasedByUserId: caller.userId,
      redactions: request.rectangles,
    },
  });
  await countSeriesRelease(deps.organisation, caller.hospitalId, othersStillHeld);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'SERIES_REDACTED',
    ...actor,
    details: {
      seriesId,
      reasons: series.burnedInText!.reasons,
      rectangles: request.rectangles,
      instances: instances.length,
    },
  });
  await reprocessAfterRelease(dataset, series.id, actor, deps);
  return toSeries(updated);
}
