import { createDepartment } from '#shared/domain/organisation/departments.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('POST /api/departments', async ({ body }, caller, deps) =>
  createDepartment(body, caller, deps),
);
