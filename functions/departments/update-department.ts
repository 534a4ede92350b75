import { updateDepartment } from '#shared/domain/organisation/departments.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler(
  'PATCH /api/departments/{departmentId}',
  async ({ pathParameters, body }, caller, deps) => updateDepartment(pathParameters.departmentId, body, caller, deps),
);
