/** Byte-array helpers shared by the DICOM and NIfTI code (browser-safe: Uint8Array only). */

/** The parts one after another in a new array; `total` (their summed length) saves a pass when the caller knows it. */
export function concatBytes(parts: Uint8Array[], total?: number): Uint8Array {
  const out = new Uint8Array(total ?? parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
