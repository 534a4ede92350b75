import { verifyAuditTrail } from '#shared/domain/audit/audit-trail.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/audit/verify', async ({ body }, caller, deps) =>
  verifyAuditTrail(body, caller, deps),
);
