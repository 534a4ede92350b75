import { z } from 'zod';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { FileKeySchema } from '#shared/schemas/api/uploads.ts';
import type { UploadManifest } from './ports.ts';

const ManifestSchema = z.object({
  files: z.array(z.object({ fileKey: FileKeySchema, sizeBytes: z.number().int().nonnegative() })),
});

/** Stores a session's declared files (keys and sizes only: no path or name, docs/domain.md#upload-sessions). */
export async function writeManifest(
  objects: ObjectStore,
  hospitalId: string,
  datasetId: string,
  sessionId: string,
  manifest: UploadManifest,
): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify(manifest));
  await objects.put('uploads', uploadKeys.manifest(hospitalId, datasetId, sessionId), body, 'application/json');
}

export async function readManifest(
  objects: ObjectStore,
  hospitalId: string,
  datasetId: string,
  sessionId: string,
): Promise<UploadManifest> {
  const bytes = await objects.get('uploads', uploadKeys.manifest(hospitalId, datasetId, sessionId));
  return ManifestSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
}
