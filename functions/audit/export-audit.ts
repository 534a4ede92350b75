import { exportAuditCsv } from '#shared/domain/audit/audit-trail.ts';
import { httpHandler, TextReply } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/audit/export.csv', async ({ query }, caller, deps) => {
  const { csv, hospitalId } = await exportAuditCsv(query, caller, deps);
  return new TextReply(csv, 'text/csv; charset=utf-8', {
    'Content-Disposition': `attachment; filename="audit-log-${hospitalId}-${deps.clock.now().slice(0, 10)}.csv"`,
  });
});
