/**
 * The key a file is known by on the server: hex SHA-256 of a salt the client keeps, the file's relative path and its
 * size. The server never sees the path (PACS exports name folders after patients); a client holding the salt recomputes
 * the keys of re-picked files to resume. WebCrypto only, so the site and `iws upload` share it.
 */
export async function uploadFileKey(salt: string, path: string, sizeBytes: number): Promise<string> {
  const text = new TextEncoder().encode(`${salt}\n${path}\n${sizeBytes}`);
  return hex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', text)));
}

/** Two hex digits per byte value: a study's keys are made by the thousand, so without a string per digit. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex = (bytes: Uint8Array) => bytes.reduce((out, byte) => out + HEX_BYTES[byte]!, '');

/** A fresh random salt (128 bits, hex) for one upload: keys of different uploads of the same folder never match. */
export function newUploadSalt(): string {
  return hex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}
