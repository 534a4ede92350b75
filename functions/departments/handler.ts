import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as createDepartment } from './create-department.ts';
import { handler as deleteDepartment } from './delete-department.ts';
import { handler as listDepartments } from './list-departments.ts';
import { handler as updateDepartment } from './update-department.ts';

const route = dispatch<'departments'>({
  'GET /api/departments': listDepartments,
  'POST /api/departments': createDepartment,
  'PATCH /api/departments/{departmentId}': updateDepartment,
  'DELETE /api/departments/{departmentId}': deleteDepartment,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
