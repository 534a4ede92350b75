import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';

export type ViewerVolume = {
  volume: ProcessedAsset;
  fa?: ProcessedAsset;
  colorFa?: ProcessedAsset;
  tracts?: ProcessedAsset;
};

/**
 * Groups the dataset's processed assets for the viewer: each base VOLUME (one per converted series) with the
 * FA and colour-FA maps and the tractography derived from it. The SURFACE is dataset-wide.
 */
export function groupViewerAssets(assets: readonly ProcessedAsset[]): {
  volumes: ViewerVolume[];
  surface?: ProcessedAsset;
} {
  const isDerived = (a: ProcessedAsset) => typeof a.metadata.map === 'string';
  const volumes = assets
    .filter((a) => a.type === 'VOLUME' && !isDerived(a))
    .map((volume) => ({
      volume,
      fa: assets.find((a) => a.type === 'VOLUME' && a.metadata.derivedFrom === volume.id && a.metadata.map === 'FA'),
      colorFa: assets.find(
        (a) => a.type === 'VOLUME' && a.metadata.derivedFrom === volume.id && a.metadata.map === 'colorFA',
      ),
      tracts: assets.find((a) => a.type === 'TRACT' && a.metadata.volumeAssetId === volume.id),
    }));
  return { volumes, surface: assets.find((a) => a.type === 'SURFACE') };
}

/** File name NiiVue infers the format from (presigned URLs carry a query string, so the name is given explicitly). */
export function viewerFileName(asset: ProcessedAsset): string {
  if (asset.type === 'TRACT') return `${asset.id}.trk`;
  if (asset.type === 'SURFACE')
    return `${asset.id}.${typeof asset.metadata.format === 'string' ? asset.metadata.format : 'mz3'}`;
  return `${asset.id}.nii.gz`;
}

/** What a form or an imported study holds where no physician was named; none of these is a name. */
const NO_PHYSICIAN = /^(not given|not provided|unknown|none|n\/?a|-+)$/i;

/**
 * docs/screens.md#visualizer: the header shows the ordering physician's last name; empty when the study names no
 * physician (empty, or a "Not given" of the upload form), so the header never prints "Dr. given".
 */
export function physicianLastName(orderingPhysician: string): string {
  const cleaned = orderingPhysician.replace(/^(dr\.?|prof\.?)\s+/i, '').trim();
  if (!cleaned || NO_PHYSICIAN.test(cleaned)) return '';
  if (cleaned.includes(',')) return cleaned.split(',')[0]!.trim();
  const parts = cleaned.split(/\s+/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}
