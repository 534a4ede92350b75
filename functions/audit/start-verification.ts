import { startAuditVerification } from '#shared/domain/audit/verification-job.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/audit/verifications', async ({ body }, caller, deps) =>
  startAuditVerification(body, caller, deps),
);
