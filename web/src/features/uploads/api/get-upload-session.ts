import { UploadSessionSchema } from '#shared/schemas/api/uploads.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** GET /api/uploads/{sessionId}: the files of an open upload and the parts the storage already holds. */
export function getUploadSession(sessionId: string) {
  return apiRequest(`/api/uploads/${encodeURIComponent(sessionId)}`, UploadSessionSchema);
}
