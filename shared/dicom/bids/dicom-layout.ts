import type { SeriesGroup } from '#shared/dicom/series.ts';
import { zipFiles } from './zip.ts';

/** docs/domain.md#zip-export: the BIDS version written into dataset_description.json. */
export const DICOM_LAYOUT_BIDS_VERSION = '1.8.0';
const SUBJECT = 'sub-01';
const SESSION = 'ses-001';

export type DicomLayoutSelection = {
  series: SeriesGroup;
  /** Folder under the session, the per-series BIDS category chosen in the wizard (e.g. "anat"). */
  category: string;
  /** The file-name part after the session (e.g. "T1w"). */
  subcategory: string;
  files: { fileName: string; bytes: Uint8Array }[];
};

export type DicomLayoutSeriesEntry = {
  seriesInstanceUID: string;
  seriesNumber: number;
  seriesDescription: string;
  modality: string;
  category: string;
  subcategory: string;
  folder: string;
  fileCount: number;
};

export type DicomLayoutMetadata = {
  exportDate: string;
  bidsVersion: string;
  seriesCount: number;
  totalFiles: number;
  series: DicomLayoutSeriesEntry[];
};

/**
 * "Download BIDS ZIP" (docs/domain.md#zip-export): the selected series' DICOM files in BIDS-like folders,
 * `sub-01/ses-001/{category}/{series description}_Series{NNN}/sub-01_ses-001_{subcategory}_{NNNN}.dcm`, plus
 * dataset_description.json and metadata.json (export date, series count, total files, per-series mapping), deflate
 * level 6, named `BIDS_Export_{yyyy-mm-dd}.zip`. The 4-digit number is the file's InstanceNumber; when instance numbers
 * repeat within a series (some exports restart them per acquisition) the file's position in the series is used for
 * the whole series instead, so no file overwrites another. Browser-safe: the upload wizard calls it on local files.
 */
export async function buildDicomLayoutZip(
  selection: DicomLayoutSelection[],
  options: { exportDate?: Date } = {},
): Promise<{ fileName: string; bytes: Uint8Array; metadata: DicomLayoutMetadata }> {
  const exportDate = options.exportDate ?? new Date();
  const files = new Map<string, Uint8Array | string>();
  const entries: DicomLayoutSeriesEntry[] = [];
  const usedFolders = new Set<string>();
  const ordered = [...selection].sort((a, b) => a.series.seriesNumber - b.series.seriesNumber);
  for (const item of ordered) {
    const category = sanitizePathPart(item.category) || 'anat';
    const subcategory = sanitizePathPart(item.subcategory) || 'T1w';
    const baseFolder = `${SUBJECT}/${SESSION}/${category}/${sanitizePathPart(item.series.seriesDescription) || 'Unknown_Series'}_Series${pad(item.series.seriesNumber, 3)}`;
    let folder = baseFolder;
    for (let copy = 2; usedFolders.has(folder); copy += 1) folder = `${baseFolder}_${copy}`;
    usedFolders.add(folder);
    const numbers = instanceNumbers(item);
    item.files.forEach((file, index) => {
      files.set(`${folder}/${SUBJECT}_${SESSION}_${subcategory}_${pad(numbers[index]!, 4)}.dcm`, file.bytes);
    });
    entries.push({
      seriesInstanceUID: item.series.seriesInstanceUID,
      seriesNumber: item.series.seriesNumber,
      seriesDescription: item.series.seriesDescription,
      modality: item.series.modality,
      category,
      subcategory,
      folder,
      fileCount: item.files.length,
    });
  }
  const metadata: DicomLayoutMetadata = {
    exportDate: exportDate.toISOString(),
    bidsVersion: DICOM_LAYOUT_BIDS_VERSION,
    seriesCount: entries.length,
    totalFiles: entries.reduce((sum, entry) => sum + entry.fileCount, 0),
    series: entries,
  };
  files.set(
    'dataset_description.json',
    JSON.stringify(
      {
        Name: 'DICOM Export',
        BIDSVersion: DICOM_LAYOUT_BIDS_VERSION,
        DatasetType: 'raw',
        GeneratedBy: [{ Name: 'Imaging Workspace', Description: 'DICOM files in BIDS-like folders' }],
      },
      null,
      2,
    ),
  );
  files.set('metadata.json', JSON.stringify(metadata, null, 2));
  const bytes = await zipFiles(files, { date: exportDate });
  return { fileName: `BIDS_Export_${exportDate.toISOString().slice(0, 10)}.zip`, bytes, metadata };
}

/** Each file's number in the name: its InstanceNumber, or its 1-based position when numbers repeat in the series. */
function instanceNumbers(item: DicomLayoutSelection): number[] {
  const byName = new Map(item.series.files.map((file) => [file.fileName, file.instanceNumber]));
  const numbers = item.files.map((file, index) => byName.get(file.fileName) ?? index + 1);
  return new Set(numbers).size === numbers.length ? numbers : item.files.map((_file, index) => index + 1);
}

function pad(value: number, width: number): string {
  return String(Math.max(0, Math.trunc(value))).padStart(width, '0');
}

/** Keeps a description readable as a folder name on every OS: path separators, reserved and control characters become "_". */
function sanitizePathPart(value: string): string {
  return (
    value
      .trim()
      // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
      .replace(/[\u0000-\u001f<>:"/\\|?*\s]+/g, '_')
      .replace(/^\.+/, '')
      .replace(/_+$/, '')
  );
}
