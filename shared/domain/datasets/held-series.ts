import { isHeldForBurnedInText, type BurnedInText } from '#shared/schemas/api/datasets.ts';
import type { AssetRecord, DatasetRepository } from './ports.ts';

/**
 * Held means held everywhere (docs/pipeline.md#burned-in-text): nothing of a series held for possible burned-in text
 * leaves the product until a lead or hospital admin releases it. Every way data leaves (DICOMweb QIDO-RS and WADO-RS,
 * asset URLs for the site and team shares, patient shares) filters through these two, so one predicate,
 * isHeldForBurnedInText, decides for all of them.
 */
export function withoutHeldSeries<T extends { burnedInText?: BurnedInText | undefined }>(series: readonly T[]): T[] {
  return series.filter((s) => !isHeldForBurnedInText(s));
}

/**
 * The dataset's assets less those of a held series (a volume, thumbnail, surface or tract names its series). The
 * pipeline makes none of them for a held series; this keeps it so whatever the items say, e.g. an asset written before
 * a series was flagged. The report has no series and is built from the series that are not held.
 */
export async function releasedAssets(
  datasets: Pick<DatasetRepository, 'listAssets' | 'listSeries'>,
  hospitalId: string,
  datasetId: string,
): Promise<AssetRecord[]> {
  const [assets, series] = await Promise.all([
    datasets.listAssets(hospitalId, datasetId),
    datasets.listSeries(hospitalId, datasetId),
  ]);
  const held = new Set(series.filter(isHeldForBurnedInText).map((s) => s.id));
  return assets.filter((a) => a.seriesId === undefined || !held.has(a.seriesId));
}
