/**
 * Siemens CSA header (0029,1010 / 0029,1020) reader: the "SV10" layout and the older one without the signature.
 * Only string values are kept; numbers are parsed by the caller. Browser-safe (DataView over Uint8Array).
 * Layout as documented by nibabel (nibabel/nicom/csareader.py) and used by dcm2niix.
 */
export function readCsaHeader(bytes: Uint8Array): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (bytes.length < 16) return out;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isSv10 = bytes[0] === 0x53 && bytes[1] === 0x56 && bytes[2] === 0x31 && bytes[3] === 0x30;
  let offset = isSv10 ? 8 : 0;
  const tagCount = view.getUint32(offset, true);
  offset += 8;
  if (tagCount < 1 || tagCount > 1000) return out;
  const decoder = new TextDecoder('latin1');
  for (let t = 0; t < tagCount; t += 1) {
    if (offset + 84 > bytes.length) break;
    const name = decoder.decode(bytes.subarray(offset, offset + 64)).split('\0')[0] ?? '';
    const itemCount = view.getUint32(offset + 76, true);
    offset += 84;
    const values: string[] = [];
    for (let i = 0; i < itemCount; i += 1) {
      if (offset + 16 > bytes.length) return out;
      const length = view.getUint32(offset + 4, true);
      offset += 16;
      if (offset + length > bytes.length) return out;
      const value =
        decoder
          .decode(bytes.subarray(offset, offset + length))
          .split('\0')[0]
          ?.trim() ?? '';
      if (value) values.push(value);
      offset += Math.ceil(length / 4) * 4;
    }
    if (name) out.set(name, values);
  }
  return out;
}
