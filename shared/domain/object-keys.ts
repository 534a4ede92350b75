/**
 * Every object key of every bucket, built here and nowhere else. A key is made of our ids (hospital, dataset, upload
 * file index, series id) and the asset type only: no series description, protocol name, file or folder name ever
 * reaches a key, so keys are safe to log and to keep. DICOM UIDs (the series id and the instance UID of a stored copy)
 * are checked against PS3.5 section 9.1 before they become part of a key.
 *
 *   uploads  <hospitalId>/<datasetId>/raw/<fileIndex>;
 *            <hospitalId>/<datasetId>/raw/archive/<sessionId>.tar (a packed upload) and .json (its declared files)
 *   studies  <hospitalId>/<datasetId>/<seriesUID>/<sopInstanceUID>.dcm;
 *            exports/<hospitalId>/<exportId>.zip (a dataset export, expired by the bucket)
 *   assets   <hospitalId>/<datasetId>/<seriesId>/volume-<n>.nii.gz (.json, .bval, .bvec), thumbnail.png,
 *            surface.<format>, volume-<n>-fa.nii.gz, volume-<n>-colorfa.nii.gz, volume-<n>-tracts.trk;
 *            <hospitalId>/<datasetId>/report.pdf;
 *            <hospitalId>/<datasetId>/patient-shares/<shareId>/<assetId>.pdf (.png, .nii.gz, .nii): a patient's
 *            marked download, and the marked volume the patient's viewer loads
 */
import { isDicomUid } from '#shared/schemas/api/common.ts';

/** Our own ids: letters, digits, '_' and '-', never a dot, so no segment can be '.' or '..'. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A value that cannot be part of an object key. Its message names the kind of value, never the value. */
export class ObjectKeyError extends Error {
  override name = 'ObjectKeyError';
  constructor(kind: string) {
    super(`Invalid ${kind} for an object key`);
  }
}

function id(kind: string, value: string): string {
  if (!ID_PATTERN.test(value)) throw new ObjectKeyError(kind);
  return value;
}

function uid(kind: string, value: string): string {
  if (!isDicomUid(value)) throw new ObjectKeyError(kind);
  return value;
}

function index(kind: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new ObjectKeyError(kind);
  return value;
}

/** The series id of a stored series is its (de-identified) SeriesInstanceUID. */
function seriesSegment(seriesId: string): string {
  return uid('series id', seriesId);
}

/** Everything of one dataset in any bucket (deletion, presign checks). */
export function datasetPrefix(hospitalId: string, datasetId: string): string {
  return `${id('hospital id', hospitalId)}/${id('dataset id', datasetId)}/`;
}

export const uploadKeys = {
  /** Raw uploads of a dataset, deleted once the de-identified copies are stored. */
  prefix: (hospitalId: string, datasetId: string) => `${datasetPrefix(hospitalId, datasetId)}raw/`,
  /** One uploaded file, named by its index in the upload session, never by its path. */
  file: (hospitalId: string, datasetId: string, fileIndex: number) =>
    `${uploadKeys.prefix(hospitalId, datasetId)}${index('file index', fileIndex)}`,
  /** Packed uploads of a dataset (docs/domain.md#upload-sessions), one archive per upload session. */
  archivePrefix: (hospitalId: string, datasetId: string) => `${uploadKeys.prefix(hospitalId, datasetId)}archive/`,
  /** A session's study archive: its files in declared order, each named by its index. */
  archive: (hospitalId: string, datasetId: string, sessionId: string) =>
    `${uploadKeys.archivePrefix(hospitalId, datasetId)}${id('session id', sessionId)}.tar`,
  /** A session's declared files (keys and sizes, in archive order), written when the session opens. */
  manifest: (hospitalId: string, datasetId: string, sessionId: string) =>
    `${uploadKeys.archivePrefix(hospitalId, datasetId)}${id('session id', sessionId)}.json`,
};

/** Days an export's ZIP is kept: the studies bucket expires the exports prefix, and no link is issued after. */
export const EXPORT_RETENTION_DAYS = 7;

export const studyKeys = {
  prefix: (hospitalId: string, datasetId: string) => datasetPrefix(hospitalId, datasetId),
  series: (hospitalId: string, datasetId: string, seriesUID: string) =>
    `${datasetPrefix(hospitalId, datasetId)}${uid('series UID', seriesUID)}/`,
  instance: (hospitalId: string, datasetId: string, seriesUID: string, sopInstanceUID: string) =>
    `${studyKeys.series(hospitalId, datasetId, seriesUID)}${uid('instance UID', sopInstanceUID)}.dcm`,
  /** The series' headers in one object (shared/dicom/header-bundle.ts), beside the series folders, not in them. */
  seriesHeaders: (hospitalId: string, datasetId: string, seriesUID: string) =>
    `${datasetPrefix(hospitalId, datasetId)}headers/${uid('series UID', seriesUID)}.bin`,
  /**
   * A WADO-RS answer too large for one response, staged for its client to fetch (docs/dicom-intake.md#large-retrievals).
   * Outside every dataset's prefix, so storage metering never counts it; the bucket expires the prefix after a day.
   */
  retrievalPrefix: 'retrievals/',
  retrieval: (hospitalId: string, retrievalId: string) =>
    `retrievals/${id('hospital id', hospitalId)}/${id('retrieval id', retrievalId)}.multipart`,
  /**
   * A dataset export's ZIP (docs/exports.md), named by the export's job so a rebuilt ZIP replaces itself. Outside every
   * dataset's prefix, so storage metering never counts it; the bucket expires the prefix (EXPORT_RETENTION_DAYS).
   */
  exportPrefix: 'exports/',
  export: (hospitalId: string, jobId: string) =>
    `exports/${id('hospital id', hospitalId)}/${id('export id', jobId)}.zip`,
};

/** Files of one NIfTI volume (dcm2niix output `index` of its series). */
export type VolumePart = 'nifti' | 'sidecar' | 'bval' | 'bvec';
const VOLUME_EXTENSION: Record<VolumePart, string> = {
  nifti: 'nii.gz',
  sidecar: 'json',
  bval: 'bval',
  bvec: 'bvec',
};
/** Maps derived from a diffusion volume. */
export type DerivedPart = 'fa' | 'colorfa' | 'tracts';
const DERIVED_FILE: Record<DerivedPart, string> = {
  fa: 'fa.nii.gz',
  colorfa: 'colorfa.nii.gz',
  tracts: 'tracts.trk',
};
const SURFACE_FORMATS = new Set(['mz3', 'gii', 'obj', 'stl']);

function seriesAssetPrefix(hospitalId: string, datasetId: string, seriesId: string): string {
  return `${datasetPrefix(hospitalId, datasetId)}${seriesSegment(seriesId)}/`;
}

export const assetKeys = {
  prefix: (hospitalId: string, datasetId: string) => datasetPrefix(hospitalId, datasetId),
  volume: (hospitalId: string, datasetId: string, seriesId: string, volumeIndex: number, part: VolumePart) =>
    `${seriesAssetPrefix(hospitalId, datasetId, seriesId)}volume-${index('volume index', volumeIndex)}.${VOLUME_EXTENSION[part]}`,
  thumbnail: (hospitalId: string, datasetId: string, seriesId: string) =>
    `${seriesAssetPrefix(hospitalId, datasetId, seriesId)}thumbnail.png`,
  surface: (hospitalId: string, datasetId: string, seriesId: string, format: string) => {
    if (!SURFACE_FORMATS.has(format)) throw new ObjectKeyError('surface format');
    return `${seriesAssetPrefix(hospitalId, datasetId, seriesId)}surface.${format}`;
  },
  derived: (hospitalId: string, datasetId: string, seriesId: string, volumeIndex: number, part: DerivedPart) =>
    `${seriesAssetPrefix(hospitalId, datasetId, seriesId)}volume-${index('volume index', volumeIndex)}-${DERIVED_FILE[part]}`,
  report: (hospitalId: string, datasetId: string) => `${datasetPrefix(hospitalId, datasetId)}report.pdf`,
};

/** A patient's download, marked for the share (docs/domain.md#patient-downloads); removed with the dataset's prefix. */
export function patientDownloadKey(
  hospitalId: string,
  datasetId: string,
  shareId: string,
  assetId: string,
  extension: 'pdf' | 'png' | 'nii.gz' | 'nii',
): string {
  return `${datasetPrefix(hospitalId, datasetId)}patient-shares/${id('share id', shareId)}/${id('asset id', assetId)}.${extension}`;
}
