import { loadReadableDataset, type ShareGrants } from './load-dataset.ts';
import { releasedAssets } from './held-series.ts';
import type { AssetRecord, DatasetRecord, DatasetRepository, SeriesRecord } from './ports.ts';
import { requirePermission, requireSharePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError, NotFoundError } from '#shared/domain/errors.ts';
import type { Mailer } from '#shared/domain/invitations/ports.ts';
import { startJob, type JobKindHandler, type JobStartDeps } from '#shared/domain/jobs/runner.ts';
import type { JobRecord, JobRef, JobStore } from '#shared/domain/jobs/ports.ts';
import { toJob } from '#shared/domain/jobs/view.ts';
import { EXPORT_RETENTION_DAYS, studyKeys } from '#shared/domain/object-keys.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { BucketName, ObjectStore } from '#shared/domain/storage.ts';
import { buildBidsDataset, type BidsSeriesInput } from '#shared/dicom/bids/bids-dataset.ts';
import { zipFiles } from '#shared/dicom/bids/zip.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import type { DatasetExport, ExportFormat } from '#shared/schemas/api/exports.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';

/**
 * Server-side export of a stored dataset (docs/exports.md). The request checks EXPORT_DATA, a share's `export`
 * permission and the dataset's status, then answers 202 with a DATASET_EXPORT job. The job checks the dataset's files a
 * chunk at a time from its cursor (one item per series of DICOM, per volume of NIfTI and BIDS, per derived asset);
 * its `finish` builds the ZIP under a key named by the job, so a run cut off anywhere rebuilds the same ZIP.
 * Nothing of a series held for possible burned-in text is exported (docs/pipeline.md#burned-in-text); the manifest
 * names the series left out.
 */

/** How long a link handed to the requester (on the page, and in the e-mail) works. */
export const EXPORT_LINK_TTL_SECONDS = 60 * 60;
export const EXPORT_MAIL_LINK_TTL_SECONDS = 24 * 60 * 60;
/** The manifest inside every ZIP: what is in it and what was left out, with why. */
export const EXPORT_MANIFEST = 'export-manifest.json';
/** Files checked per chunk. */
const EXPORT_CHUNK = 25;
const DAY_MS = 24 * 60 * 60 * 1000;
export const HELD_REASON = 'held for review of possible burned-in text';

export type ExportInput = { datasetId: string; format: ExportFormat; email: string };

export type ExportDeps = {
  datasets: DatasetRepository;
  objects: ObjectStore;
  jobs: JobStore;
  audit: AuditLog;
  clock: Clock;
  mailer: Mailer;
  siteOrigin: string;
};

type SeriesRef = { seriesNumber: number; seriesInstanceUID: string };
type Source = { bucket: BucketName; key: string; path: string };
/** One item of the job: the files it puts in the ZIP, and for BIDS the volume's BIDS type. */
type ExportEntry = {
  subject: string;
  sources: Source[];
  bids?: { datatype: string; suffix: string; entities?: Record<string, string> };
  series?: SeriesRef;
};
type ExportPlan = { entries: ExportEntry[]; included: SeriesRef[]; excluded: (SeriesRef & { reason: string })[] };

const refOf = (s: SeriesRecord): SeriesRef => ({
  seriesNumber: s.seriesNumber,
  seriesInstanceUID: s.seriesInstanceUID,
});
const inputOf = (job: Pick<JobRecord, 'input'>) => job.input as ExportInput;
const fileName = (input: ExportInput) => `${input.datasetId}-${input.format}.zip`;
const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/** Starts an export of a COMPLETE dataset the caller may read and export; 202 with the job. */
export async function startDatasetExport(
  datasetId: string,
  body: { format: ExportFormat },
  caller: Caller,
  deps: JobStartDeps & { datasets: DatasetRepository; audit: AuditLog; shares?: ShareGrants },
): Promise<JobAccepted> {
  let dataset: DatasetRecord;
  try {
    dataset = await loadReadableDataset(caller, datasetId, deps);
    requirePermission(caller, 'EXPORT_DATA');
    // Through a team share, only a share that grants `export` (docs/domain.md#share-permissions).
    requireSharePermission(dataset, 'export');
  } catch (error) {
    // A refused export is on the trail too, in the caller's hospital, as a refused read is (docs/domain.md#audit-trail).
    if (error instanceof NotFoundError || error instanceof AccessDeniedError)
      await deps.audit.record({
        hospitalId: caller.hospitalId,
        datasetId,
        action: 'DATASET_EXPORTED',
        actorUserId: caller.userId,
        actorName: `${caller.firstName} ${caller.lastName}`,
        outcome: 'DENIED',
        details: { format: body.format, role: caller.role },
      });
    throw error;
  }
  if (dataset.status !== 'COMPLETE') throw new InvalidStateError();
  const input: ExportInput = { datasetId, format: body.format, email: caller.email };
  const job = await startJob(
    {
      kind: 'DATASET_EXPORT',
      ownerHospitalId: caller.hospitalId,
      hospitalId: caller.hospitalId,
      input,
      total: null,
      createdBy: { userId: caller.userId, name: `${caller.firstName} ${caller.lastName}` },
    },
    deps,
  );
  return { jobId: job.id, job: toJob(job) };
}

/**
 * The caller's own export of this dataset: its progress, then a fresh link while the ZIP is kept. Anyone else's
 * export, or one of another dataset, answers 404 JOB_NOT_FOUND as one that does not exist.
 */
export async function getDatasetExport(
  datasetId: string,
  exportId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; objects: ObjectStore; jobs: JobStore; clock: Clock; shares?: ShareGrants },
): Promise<DatasetExport> {
  await loadReadableDataset(caller, datasetId, deps);
  const job = await deps.jobs.get({ ownerHospitalId: caller.hospitalId, jobId: exportId });
  if (
    !job ||
    job.kind !== 'DATASET_EXPORT' ||
    inputOf(job).datasetId !== datasetId ||
    job.createdBy.userId !== caller.userId
  )
    throw new NotFoundError('JOB_NOT_FOUND');
  const input = inputOf(job);
  return {
    id: job.id,
    datasetId,
    format: input.format,
    job: toJob(job),
    download: await downloadOf(job, EXPORT_LINK_TTL_SECONDS, deps),
  };
}

/** A link to a finished export's ZIP, never past the day the bucket expires it. */
async function downloadOf(
  job: JobRecord,
  ttlSeconds: number,
  deps: { objects: ObjectStore; clock: Clock },
): Promise<DatasetExport['download']> {
  if (job.status !== 'SUCCEEDED' || !job.finishedAt) return null;
  const now = Date.parse(deps.clock.now());
  const keptUntil = Date.parse(job.finishedAt) + EXPORT_RETENTION_DAYS * DAY_MS;
  const seconds = Math.min(ttlSeconds, Math.floor((keptUntil - now) / 1000));
  if (seconds <= 0) return null;
  const key = studyKeys.export(job.ownerHospitalId, job.id);
  const stored = (await deps.objects.list('studies', key)).find((o) => o.key === key);
  if (!stored) return null;
  return {
    url: await deps.objects.presignGet('studies', key, seconds),
    expiresAt: new Date(now + seconds * 1000).toISOString(),
    fileName: fileName(inputOf(job)),
    byteSize: stored.size,
  };
}

/** The files of each format, from the dataset's series and assets as they are now; held series left out. */
async function planExport(job: JobRecord, deps: ExportDeps): Promise<ExportPlan> {
  const { datasetId, format } = inputOf(job);
  const hospitalId = job.hospitalId;
  const series = (await deps.datasets.listSeries(hospitalId, datasetId)).sort(
    (a, b) => a.seriesNumber - b.seriesNumber || a.id.localeCompare(b.id),
  );
  const excluded = series.filter(isHeldForBurnedInText).map((s) => ({ ...refOf(s), reason: HELD_REASON }));
  const released = series.filter((s) => !isHeldForBurnedInText(s));
  const byId = new Map(released.map((s) => [s.id, s]));
  const entries: ExportEntry[] = [];
  if (format === 'dicom') {
    for (const s of released) {
      const stored = await deps.objects.list('studies', studyKeys.series(hospitalId, datasetId, s.seriesInstanceUID));
      if (stored.length === 0) continue;
      entries.push({
        subject: `DICOM/series-${s.seriesNumber}`,
        series: refOf(s),
        sources: stored.map((o) => ({
          bucket: 'studies',
          key: o.key,
          path: `DICOM/series-${s.seriesNumber}/${baseName(o.key)}`,
        })),
      });
    }
  } else {
    const assets = (await releasedAssets(deps.datasets, hospitalId, datasetId)).sort(
      (a, b) => a.objectKey.localeCompare(b.objectKey) || a.id.localeCompare(b.id),
    );
    for (const asset of assets) {
      const s = asset.seriesId ? byId.get(asset.seriesId) : undefined;
      if (asset.seriesId && !s) continue;
      const folder = s ? `series-${s.seriesNumber}/` : '';
      if (format === 'assets' && asset.type !== 'VOLUME') {
        entries.push({
          subject: `assets/${folder}${baseName(asset.objectKey)}`,
          ...(s ? { series: refOf(s) } : {}),
          sources: [{ bucket: 'assets', key: asset.objectKey, path: `assets/${folder}${baseName(asset.objectKey)}` }],
        });
      } else if (format !== 'assets' && asset.type === 'VOLUME' && s) {
        entries.push(volumeEntry(asset, s, `NIfTI/${folder}`));
      }
    }
  }
  const inZip = new Set(entries.flatMap((e) => (e.series ? [e.series.seriesInstanceUID] : [])));
  return { entries, included: released.filter((s) => inZip.has(s.seriesInstanceUID)).map(refOf), excluded };
}

/** A VOLUME asset and its companions (sidecar, b-values, gradients), as NIfTI files or as a BIDS series. */
function volumeEntry(asset: AssetRecord, series: SeriesRecord, folder: string): ExportEntry {
  const metadata = asset.metadata as { sidecarKey?: string; bvalKey?: string; bvecKey?: string };
  const stem = baseName(asset.objectKey).replace(/\.nii\.gz$/, '');
  const companion = (key: string | undefined, extension: string): Source[] =>
    typeof key === 'string' ? [{ bucket: 'assets', key, path: `${folder}${stem}.${extension}` }] : [];
  return {
    subject: `${folder}${stem}.nii.gz`,
    series: refOf(series),
    ...(series.classification ? { bids: series.classification.bids } : {}),
    sources: [
      { bucket: 'assets', key: asset.objectKey, path: `${folder}${stem}.nii.gz` },
      ...companion(metadata.sidecarKey, 'json'),
      ...companion(metadata.bvalKey, 'bval'),
      ...companion(metadata.bvecKey, 'bvec'),
    ],
  };
}

/** Every result of the job, page by page: which entries were found. */
async function succeededSeqs(ref: JobRef, jobs: JobStore): Promise<Set<number>> {
  const done = new Set<number>();
  let startKey: Record<string, string> | undefined;
  do {
    const page = await jobs.listResults(ref, 500, startKey);
    for (const r of page.items) if (r.outcome === 'SUCCEEDED') done.add(r.seq);
    startKey = page.lastKey;
  } while (startKey);
  return done;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The ZIP's files: the entries found, laid out for the format, and the manifest. */
async function zipContents(
  job: JobRecord,
  plan: ExportPlan,
  found: ExportEntry[],
  deps: ExportDeps,
): Promise<Map<string, Uint8Array | string>> {
  const { datasetId, format } = inputOf(job);
  const files = new Map<string, Uint8Array | string>();
  let skipped: { baseName: string; seriesNumber?: number; reason: string }[] = [];
  if (format === 'bids') {
    const series: BidsSeriesInput[] = [];
    for (const entry of found) {
      if (!entry.bids) {
        skipped.push({ baseName: entry.subject, reason: 'series without a classification' });
        continue;
      }
      const read = async (extension: string) => {
        const source = entry.sources.find((s) => s.path.endsWith(`.${extension}`));
        return source ? deps.objects.get(source.bucket, source.key) : undefined;
      };
      const [nifti, sidecar, bval, bvec] = await Promise.all([
        read('nii.gz'),
        read('json'),
        read('bval'),
        read('bvec'),
      ]);
      series.push({
        output: {
          baseName: entry.subject,
          nifti: nifti!,
          sidecar: sidecar ? (JSON.parse(text(sidecar)) as Record<string, unknown>) : {},
          ...(bval ? { bval: text(bval) } : {}),
          ...(bvec ? { bvec: text(bvec) } : {}),
          ...(entry.series
            ? { seriesInstanceUID: entry.series.seriesInstanceUID, seriesNumber: entry.series.seriesNumber }
            : {}),
        },
        bids: entry.bids,
      });
    }
    const bids = buildBidsDataset(series, {
      subject: '01',
      name: `Imaging Workspace export ${datasetId}`,
      date: new Date(job.createdAt),
    });
    for (const [path, content] of bids.files) files.set(path, content);
    skipped = [...skipped, ...bids.skipped];
    // The manifest is not a BIDS file: the validator is told to leave it alone (BIDS, "The .bidsignore file").
    files.set('.bidsignore', `${EXPORT_MANIFEST}\n`);
  } else {
    for (const entry of found) {
      const bytes = await Promise.all(entry.sources.map((s) => deps.objects.get(s.bucket, s.key)));
      entry.sources.forEach((s, i) => files.set(s.path, bytes[i]!));
    }
  }
  const manifest = {
    datasetId,
    format,
    exportedAt: job.createdAt,
    files: [...files.keys()].sort(),
    includedSeries: plan.included,
    excludedSeries: plan.excluded,
    ...(skipped.length > 0 ? { skipped } : {}),
  };
  files.set(EXPORT_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

function exportMail(input: ExportInput, url: string, expiresAt: string, siteOrigin: string) {
  const page = `${siteOrigin}/datasets/${encodeURIComponent(input.datasetId)}`;
  const lines = [
    `Your ${input.format.toUpperCase()} export of dataset ${input.datasetId} is ready.`,
    `Download it (the link works until ${expiresAt}): ${url}`,
    `A fresh link is on the dataset page: ${page}`,
  ];
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return {
    to: input.email,
    subject: 'Your dataset export is ready',
    text: lines.join('\n'),
    html: `<p>${escape(lines[0]!)}</p><p><a href="${escape(url)}">Download the ZIP</a> (the link works until ${escape(expiresAt)}).</p><p>A fresh link is on <a href="${escape(page)}">the dataset page</a>.</p>`,
    tag: 'dataset-export' as const,
  };
}

/** The DATASET_EXPORT job kind (docs/jobs.md). */
export const datasetExportJob: JobKindHandler<ExportDeps> = {
  async chunk(job, cursor, deps) {
    const { entries } = await planExport(job, deps);
    const start = cursor === null ? 0 : Number(cursor);
    const end = Math.min(start + EXPORT_CHUNK, entries.length);
    return {
      items: entries
        .slice(start, end)
        .map((entry, i) => ({ seq: start + i + 1, subject: entry.subject, value: entry })),
      next: end < entries.length ? String(end) : null,
      total: entries.length,
    };
  },
  /** Checks that every file of the entry is stored; one missing leaves the entry out of the ZIP. */
  async run(_job, item, deps) {
    const entry = item.value as ExportEntry;
    // One listing per folder (a series' instances, a volume and its companions), not one per file.
    const folders = new Map<string, Source[]>();
    for (const source of entry.sources) {
      const folder = `${source.bucket}:${source.key.slice(0, source.key.lastIndexOf('/') + 1)}`;
      folders.set(folder, [...(folders.get(folder) ?? []), source]);
    }
    for (const sources of folders.values()) {
      const first = sources[0]!;
      const prefix = sources.length === 1 ? first.key : first.key.slice(0, first.key.lastIndexOf('/') + 1);
      const stored = new Set((await deps.objects.list(first.bucket, prefix)).map((o) => o.key));
      if (!sources.every((s) => stored.has(s.key))) return { outcome: 'SKIPPED' };
    }
    return { outcome: 'SUCCEEDED', ref: entry.subject };
  },
  /** Builds the ZIP under the job's key (the same ZIP however often it runs), audits it and mails the link. */
  async finish(job, deps) {
    const input = inputOf(job);
    const ref = { ownerHospitalId: job.ownerHospitalId, jobId: job.id };
    const plan = await planExport(job, deps);
    const done = await succeededSeqs(ref, deps.jobs);
    const found = plan.entries.filter((_, i) => done.has(i + 1));
    const files = await zipContents(job, plan, found, deps);
    const zip = await zipFiles(files, { date: new Date(job.createdAt) });
    const key = studyKeys.export(job.ownerHospitalId, job.id);
    await deps.objects.put('studies', key, zip, 'application/zip');
    await deps.audit.record({
      hospitalId: job.hospitalId,
      datasetId: input.datasetId,
      action: 'DATASET_EXPORTED',
      actorUserId: job.createdBy.userId,
      actorName: job.createdBy.name,
      details: {
        format: input.format,
        exportId: job.id,
        files: files.size,
        bytes: zip.byteLength,
        excludedSeries: plan.excluded.length,
      },
    });
    const now = Date.parse(deps.clock.now());
    const url = await deps.objects.presignGet('studies', key, EXPORT_MAIL_LINK_TTL_SECONDS);
    const expiresAt = new Date(now + EXPORT_MAIL_LINK_TTL_SECONDS * 1000).toISOString();
    if (input.email) await deps.mailer.send(exportMail(input, url, expiresAt, deps.siteOrigin));
  },
};
