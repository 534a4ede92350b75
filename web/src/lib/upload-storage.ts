/**
 * Every item the upload wizard keeps in the browser is named with this prefix, so sign-out can remove them all
 * without the auth feature knowing the uploads feature (docs/architecture.md#the-site).
 */
export const UPLOAD_STORAGE_PREFIX = 'iws.upload.';

/** Removes every upload item from localStorage and sessionStorage: nothing of a study outlives its user's session. */
export function clearUploadStorage(): void {
  for (const store of [globalThis.localStorage, globalThis.sessionStorage]) {
    if (!store) continue;
    for (const key of Object.keys(store)) if (key.startsWith(UPLOAD_STORAGE_PREFIX)) store.removeItem(key);
  }
}
