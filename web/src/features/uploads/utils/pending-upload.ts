import { z } from 'zod';
import { uploadFileKey } from '#shared/client/file-key.ts';
import { UPLOAD_STORAGE_PREFIX } from '#web/lib/upload-storage.ts';

/**
 * What survives a closed tab: the dataset, its upload session and the salt of its file keys, nothing else. File and
 * folder names are not kept here nor on the server (PACS exports name folders after patients): on return the server's
 * session lists the file keys, the user picks the same folder again, the keys of the picked files are recomputed with
 * the salt, and only parts the server does not hold yet are sent. Sign-out removes it.
 */
const PendingUploadSchema = z.object({
  datasetId: z.string().min(1),
  sessionId: z.string().min(1),
  fileCount: z.number().int().positive(),
  salt: z.string().min(1),
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
 * The path a file key is computed on: the path inside the picked folder, without the folder's own name (folder
 * pickers put it first), so picking the folder or the files in it again gives the same keys.
 */
export function pathInPickedFolder(path: string): string {
  const segments = path.split('/');
  return segments.length > 1 ? segments.slice(1).join('/') : path;
}

/**
 * Matches re-picked files to the files of the open session (in file-index order) by key and size, each match carrying
 * the session's key. A picked file is tried under every trailing part of its path, so a folder picked from higher up
 * (or the files picked without their folder) still matches.
 */
export async function matchSessionFiles<T extends { path: string; file: File }>(
  sessionFiles: readonly { fileKey: string; sizeBytes: number }[],
  picked: readonly T[],
  salt: string,
): Promise<{ matched: (T & { fileKey: string })[]; missing: number }> {
  const byKey = new Map<string, T>();
  for (const p of picked) {
    const segments = p.path.split('/');
    for (let from = 0; from < segments.length; from++) {
      const key = await uploadFileKey(salt, segments.slice(from).join('/'), p.file.size);
      if (!byKey.has(key)) byKey.set(key, p);
    }
  }
  const matched: (T & { fileKey: string })[] = [];
  let missing = 0;
  for (const wanted of sessionFiles) {
    const hit = byKey.get(wanted.fileKey);
    if (hit && hit.file.size === wanted.sizeBytes) matched.push({ ...hit, fileKey: wanted.fileKey });
    else missing += 1;
  }
  return { matched, missing };
}
