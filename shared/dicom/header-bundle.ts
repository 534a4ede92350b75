/**
 * The headers of a series' files in one object (docs/pipeline.md#series-headers): each header (a Part 10 file up to,
 * not including, its Pixel Data, as `withoutPixelData` cuts it) preceded by its length as a 32-bit little-endian
 * integer. The de-identify stage writes it once per series, so that classification reads one object per series
 * instead of every file of it.
 */
export function packHeaders(headers: readonly Uint8Array[]): Uint8Array {
  const bundle = new Uint8Array(headers.reduce((sum, h) => sum + 4 + h.byteLength, 0));
  const view = new DataView(bundle.buffer);
  let offset = 0;
  for (const header of headers) {
    view.setUint32(offset, header.byteLength, true);
    bundle.set(header, offset + 4);
    offset += 4 + header.byteLength;
  }
  return bundle;
}

/** The headers of a bundle, in order; a bundle cut short or padded throws rather than yielding a partial header. */
export function unpackHeaders(bundle: Uint8Array): Uint8Array[] {
  const view = new DataView(bundle.buffer, bundle.byteOffset, bundle.byteLength);
  const headers: Uint8Array[] = [];
  let offset = 0;
  while (offset < bundle.byteLength) {
    if (offset + 4 > bundle.byteLength) throw new Error('Series header bundle is cut short');
    const length = view.getUint32(offset, true);
    const end = offset + 4 + length;
    if (end > bundle.byteLength) throw new Error('Series header bundle is cut short');
    headers.push(bundle.subarray(offset + 4, end));
    offset = end;
  }
  return headers;
}
