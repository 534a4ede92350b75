import { deleteDepartment } from '#shared/domain/organisation/departments.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('DELETE /api/departments/{departmentId}', async ({ pathParameters }, caller, deps) =>
  deleteDepartment(pathParameters.departmentId, caller, deps),
);
