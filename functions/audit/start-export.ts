import { startAuditExport } from '#shared/domain/audit/export-job.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/audit/exports', async ({ body }, caller, deps) =>
  startAuditExport(body, caller, deps),
);
