import { completeUpload } from '#shared/domain/uploads/complete-upload.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { countForHospital } from '#functions/lib/metrics.ts';

/**
 * The upload's last call, one unit per session and caller (functions/lib/idempotency.ts): a retry after a lost
 * answer gets the same dataset. The domain function is itself retry-safe (the run id is stored before the start, the
 * session closes last), so a retry after a crash finishes what was left.
 */
export const handler = httpHandler('POST /api/uploads/{sessionId}/complete', async ({ pathParameters }, caller, deps) =>
  deps.idempotency.once(
    {
      hospitalId: caller.hospitalId,
      operation: 'upload-complete',
      key: { sessionId: pathParameters.sessionId, userId: caller.userId },
    },
    async () => {
      const dataset = await completeUpload(pathParameters.sessionId, caller, deps);
      countForHospital('DatasetsCommitted', caller.hospitalId);
      return dataset;
    },
  ),
);
