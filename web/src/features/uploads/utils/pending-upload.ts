import { z } from 'zod';

/**
 * What survives a closed tab: the dataset and the identity of each file (path, size, last modified). The
 * bytes themselves cannot be kept, so on return the user picks the same folder again and only parts the
 * server does not hold yet are sent.
 */
export const PendingUploadSchema = z.object({
  datasetId: z.string(),
  studyDescription: z.string(),
  startedAt: z.string(),
  files: z.array(z.object({ path: z.string(), sizeBytes: z.number(), lastModified: z.number() })),
});
export type PendingUpload = z.infer<typeof PendingUploadSchema>;

const KEY = 'iws.upload.pending';

export function savePendingUpload(pending: PendingUpload): void {
  localStorage.setItem(KEY, JSON.stringify(pending));
}

export function loadPendingUpload(): PendingUpload | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return undefined;
    const parsed = PendingUploadSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function clearPendingUpload(): void {
  localStorage.removeItem(KEY);
}

/**
 * Matches re-picked files to the pending list by path and size. Folder pickers give paths under the picked
 * folder's name, so a path also matches when one ends with the other.
 */
export function matchPendingFiles<T extends { path: string; file: File }>(
  pending: PendingUpload,
  picked: readonly T[],
): { matched: T[]; missing: string[] } {
  const byPath = new Map(picked.map((p) => [p.path, p]));
  const matched: T[] = [];
  const missing: string[] = [];
  for (const wanted of pending.files) {
    const hit =
      byPath.get(wanted.path) ??
      picked.find(
        (p) =>
          (p.path.endsWith('/' + wanted.path) || wanted.path.endsWith('/' + p.path)) &&
          p.file.size === wanted.sizeBytes,
      );
    if (hit && hit.file.size === wanted.sizeBytes) matched.push(hit);
    else missing.push(wanted.path);
  }
  return { matched, missing };
}
