import type { BidsSuggestion } from './classify/types.ts';
import type { SeriesFileMetadata } from './metadata.ts';

/** docs/domain.md#series-categories. */
export const SERIES_CATEGORIES = ['Anatomical', 'Diffusion', 'Functional', 'Perfusion', 'Metabolic', 'Other'] as const;
export type SeriesCategory = (typeof SERIES_CATEGORIES)[number];

export type SeriesGroup = {
  seriesInstanceUID: string;
  seriesNumber: number;
  modality: string;
  seriesDescription: string;
  studyDate: string;
  /** Ordered by instanceNumber. */
  files: SeriesFileMetadata[];
  fileCount: number;
  totalSize: number;
  category: SeriesCategory;
  bidsSuggestion: BidsSuggestion;
};

/**
 * docs/domain.md#series-categories: MR with T1, T2 or FLAIR in the description is Anatomical; DWI is Diffusion; BOLD is Functional;
 * ASL is Perfusion; other MR is Anatomical; CT is Anatomical; PT is Metabolic; others are Other.
 * DTI and "diffusion" count as DWI here: a hospital would not expect a tensor series to land in Anatomical.
 */
export function categorizeSeries(modality: string, seriesDescription: string): SeriesCategory {
  const upper = modality.toUpperCase();
  const description = seriesDescription.toUpperCase();
  if (upper === 'MR') {
    if (/T1|T2|FLAIR/.test(description)) return 'Anatomical';
    if (/DWI|DTI|DIFFUSION/.test(description)) return 'Diffusion';
    if (/BOLD/.test(description)) return 'Functional';
    if (/ASL/.test(description)) return 'Perfusion';
    return 'Anatomical';
  }
  if (upper === 'CT') return 'Anatomical';
  if (upper === 'PT') return 'Metabolic';
  return 'Other';
}

/**
 * docs/domain.md#bids-suggestions: from the modality and description. FLAIR is tested before T2 so that "T2 FLAIR"
 * is suggested as FLAIR. A PET modality suggests pet whatever the description.
 */
export function suggestBids(modality: string, seriesDescription: string): BidsSuggestion {
  const description = seriesDescription.toLowerCase();
  const has = (pattern: RegExp) => pattern.test(description);
  if (modality.toUpperCase() === 'PT' || has(/\bpet\b|\bpt\b/)) return { datatype: 'pet', suffix: 'pet' };
  if (has(/flair/)) return { datatype: 'anat', suffix: 'FLAIR' };
  if (has(/t1/) && !has(/t2/)) return { datatype: 'anat', suffix: 'T1w' };
  if (has(/t2/) && !has(/t1/)) return { datatype: 'anat', suffix: 'T2w' };
  if (has(/dwi|diffusion|dti/)) return { datatype: 'dwi', suffix: 'dwi' };
  if (has(/bold|func/)) return { datatype: 'func', suffix: 'bold' };
  if (has(/asl|perfusion/)) return { datatype: 'perf', suffix: 'asl' };
  if (has(/fieldmap|fmap/)) return { datatype: 'fmap', suffix: 'fieldmap' };
  return { datatype: 'anat', suffix: 'T1w' };
}

/** Groups per-file metadata into series: series ordered by seriesNumber, files by instanceNumber. */
export function groupIntoSeries(files: SeriesFileMetadata[]): SeriesGroup[] {
  const bySeries = new Map<string, SeriesFileMetadata[]>();
  for (const file of files) {
    const list = bySeries.get(file.seriesInstanceUID);
    if (list) list.push(file);
    else bySeries.set(file.seriesInstanceUID, [file]);
  }
  const groups: SeriesGroup[] = [];
  for (const [seriesInstanceUID, members] of bySeries) {
    const ordered = [...members].sort(
      (a, b) => a.instanceNumber - b.instanceNumber || a.fileName.localeCompare(b.fileName),
    );
    const first = ordered[0]!;
    groups.push({
      seriesInstanceUID,
      seriesNumber: first.seriesNumber,
      modality: first.modality,
      seriesDescription: first.seriesDescription,
      studyDate: first.studyDate,
      files: ordered,
      fileCount: ordered.length,
      totalSize: ordered.reduce((sum, file) => sum + file.fileSize, 0),
      category: categorizeSeries(first.modality, first.seriesDescription),
      bidsSuggestion: suggestBids(first.modality, first.seriesDescription),
    });
  }
  return groups.sort(
    (a, b) => a.seriesNumber - b.seriesNumber || a.seriesInstanceUID.localeCompare(b.seriesInstanceUID),
  );
}
