/**
 * gzip through the platform's CompressionStream (Node ≥ 18 and browsers; zlib's default level 6, as dcm2niix's pigz -6).
 * dcm2niix's WASM build compresses with its built-in single-threaded deflate, about 4x slower than this on a
 * 25 MB T1, so conversion runs with `-z n` and the .nii is compressed here.
 */
export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
