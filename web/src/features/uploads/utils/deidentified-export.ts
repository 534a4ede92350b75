import { buildDicomLayoutZip } from '#shared/dicom/bids/dicom-layout.ts';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { toHex } from '#shared/dicom/hash.ts';
import { readSeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { groupIntoSeries, type SeriesGroup } from '#shared/dicom/series.ts';
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';

export type ExportSelection = {
  series: SeriesGroup;
  category: string;
  subcategory: string;
  /** The picked files of the series, in the series' order. */
  files: { bytes: Uint8Array }[];
};

/** A key used for one download only: the ZIP's UIDs and pseudonyms link to nothing else, not even a second download. */
function oneDownloadKey(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The wizard's "Download BIDS ZIP", de-identified in the browser: every selected file goes through the same PS3.15
 * Annex E engine as the pipeline, with the wizard's anonymization options and a key of its own, before it is zipped.
 * Folder names and metadata.json are built from the de-identified files (cleaned descriptions, replaced UIDs), and
 * file names are numbers, so neither the picked paths nor a patient's name reach the ZIP. A file the engine cannot
 * rewrite fails the export: it is never put in as it came.
 * Files flagged as carrying burned-in annotation are left out and counted in `withheld`.
 */
export async function buildDeidentifiedLayoutZip(
  selection: readonly ExportSelection[],
  options: AnonymizationOptions,
  key: string = oneDownloadKey(),
  exportDate?: Date,
): Promise<{ fileName: string; bytes: Uint8Array; withheld: number }> {
  let withheld = 0;
  const deidentified = selection.flatMap((item) => {
    const rewritten = item.files.flatMap((file, index) => {
      const result = deidentifyDicom(file.bytes, { secret: key, hospitalId: 'local-download', options });
      // Text burned into the pixels (PS3.3 C.7.6.1.1.7) is out of reach of attribute rules: such files stay out.
      if (result.burnedInAnnotation) {
        withheld += 1;
        return [];
      }
      const name = String(index + 1).padStart(5, '0');
      return [
        {
          name,
          bytes: result.bytes,
          metadata: readSeriesFileMetadata(parseDicom(result.bytes), name, result.bytes.length),
        },
      ];
    });
    const bytesByName = new Map(rewritten.map((m) => [m.name, m.bytes]));
    return groupIntoSeries(rewritten.map((m) => m.metadata)).map((series) => ({
      series,
      category: item.category,
      subcategory: item.subcategory,
      files: series.files.map((f) => ({ fileName: f.fileName, bytes: bytesByName.get(f.fileName)! })),
    }));
  });
  const zip = await buildDicomLayoutZip(deidentified, exportDate ? { exportDate } : {});
  return { fileName: zip.fileName, bytes: zip.bytes, withheld };
}
