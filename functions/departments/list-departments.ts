import { listDepartments } from '#shared/domain/organisation/departments.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/departments', async ({ query }, caller, deps) =>
  listDepartments(query, caller, deps),
);
