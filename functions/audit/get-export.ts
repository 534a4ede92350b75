import { getAuditExport } from '#shared/domain/audit/export-job.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/audit/exports/{exportId}', async ({ pathParameters }, caller, deps) =>
  getAuditExport(pathParameters.exportId, caller, deps),
);
