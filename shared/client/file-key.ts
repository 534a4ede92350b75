/**
 * The key a file is known by on the server: hex SHA-256 of a salt the client keeps, the file's relative path and its
 * size. The server never sees the path (PACS exports name folders after patients); a client holding the salt recomputes
 * the keys of re-picked files to resume. WebCrypto only, so the site and `iws upload` share it.
 */
export async function uploadFileKey(salt: string, path: string, sizeBytes: number): Promise<string> {
  const text = new TextEncoder().encode(`${salt}\n${path}\n${sizeBytes}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', text));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A fresh random salt (128 bits, hex) for one upload: keys of different uploads of the same folder never match. */
export function newUploadSalt(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
