import { z } from 'zod';
import { UPLOAD_STORAGE_PREFIX } from '#web/lib/upload-storage.ts';

/**
 * What survives a closed tab: the dataset and its upload session, nothing else. File and folder names are not kept
 * (PACS exports name folders after patients): on return the server's session lists the files, the user picks the
 * same folder again, and only parts the server does not hold yet are sent. Sign-out removes it.
 */
const PendingUploadSchema = z.object({
  datasetId: z.string().min(1),
  sessionId: z.string().min(1),
  fileCount: z.number().int().positive(),
  startedAt: z.string(),
});
export type PendingUpload = z.infer<typeof PendingUploadSchema>;

const KEY = `${UPLOAD_STORAGE_PREFIX}pending`;

export function savePendingUpload(pending: PendingUpload): void {
  localStorage.setItem(KEY, JSON.stringify(PendingUploadSchema.parse(pending)));
}

/** The pending upload, if any; an entry of another shape (an older release kept file paths) is removed. */
export function loadPendingUpload(): PendingUpload | undefined {
  const raw = localStorage.getItem(KEY);
  if (!raw) return undefined;
  let parsed: ReturnType<typeof PendingUploadSchema.safeParse> | undefined;
  try {
    parsed = PendingUploadSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = undefined;
  }
  if (parsed?.success) return parsed.data;
  clearPendingUpload();
  return undefined;
}

export function clearPendingUpload(): void {
  localStorage.removeItem(KEY);
}

/**
 * Matches re-picked files to the files of the open session (in file-index order) by path and size. Folder pickers
 * give paths under the picked folder's name, so a path also matches when one ends with the other.
 */
export function matchSessionFiles<T extends { path: string; file: File }>(
  sessionFiles: readonly { path: string; sizeBytes: number }[],
  picked: readonly T[],
): { matched: T[]; missing: number } {
  const byPath = new Map(picked.map((p) => [p.path, p]));
  const matched: T[] = [];
  let missing = 0;
  for (const wanted of sessionFiles) {
    const exact = byPath.get(wanted.path);
    const hit =
      exact && exact.file.size === wanted.sizeBytes
        ? exact
        : picked.find(
            (p) =>
              (p.path.endsWith('/' + wanted.path) || wanted.path.endsWith('/' + p.path)) &&
              p.file.size === wanted.sizeBytes,
          );
    if (hit) matched.push(hit);
    else missing += 1;
  }
  return { matched, missing };
}
