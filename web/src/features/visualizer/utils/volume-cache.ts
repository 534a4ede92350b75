import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';

/** How many downloaded assets the page keeps, so switching back to a series does not download it again. */
const KEPT = 6;

const downloads = new Map<string, Promise<ArrayBuffer>>();

async function download(asset: ProcessedAsset): Promise<ArrayBuffer> {
  if (!asset.url) throw new Error(`${asset.label} is not available to you.`);
  const response = await fetch(asset.url);
  if (!response.ok) throw new Error(`${asset.label} could not be downloaded (HTTP ${response.status}).`);
  return response.arrayBuffer();
}

/**
 * The asset's bytes, downloaded once per page: the first call starts the download (the page asks as soon as it knows
 * the asset, before the viewer is ready), later calls share it. A failed download is forgotten so a retry fetches again.
 */
export function assetBytes(asset: ProcessedAsset): Promise<ArrayBuffer> {
  const known = downloads.get(asset.id);
  if (known) {
    downloads.delete(asset.id);
    downloads.set(asset.id, known);
    return known;
  }
  const started = download(asset);
  started.catch(() => downloads.delete(asset.id));
  downloads.set(asset.id, started);
  while (downloads.size > KEPT) downloads.delete(downloads.keys().next().value!);
  return started;
}
