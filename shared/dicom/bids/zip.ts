import JSZip from 'jszip';

/** docs/domain.md#zip-export: deflate level 6. */
export const ZIP_DEFLATE_LEVEL = 6;

/**
 * Zips a flat map of paths → contents (text or bytes) with deflate level 6. Every entry gets the same timestamp, so
 * the same content at the same export date gives the same archive. Browser-safe.
 */
export async function zipFiles(
  files: Map<string, Uint8Array | string>,
  options: { date?: Date } = {},
): Promise<Uint8Array> {
  const zip = new JSZip();
  const date = options.date ?? new Date();
  for (const path of [...files.keys()].sort()) {
    zip.file(path, files.get(path)!, { date, createFolders: false });
  }
  return zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: ZIP_DEFLATE_LEVEL },
    platform: 'UNIX',
  });
}

/** Reads a ZIP back into paths → bytes (folders left out). Browser-safe. */
export async function unzipFiles(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const zip = await JSZip.loadAsync(bytes);
  const files = new Map<string, Uint8Array>();
  for (const entry of Object.values(zip.files)) {
    if (!entry.dir) files.set(entry.name, await entry.async('uint8array'));
  }
  return files;
}
