import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as exportAudit } from './export-audit.ts';
import { handler as getCompliance } from './get-compliance.ts';
import { handler as listAudit } from './list-audit.ts';
import { handler as verifyAudit } from './verify-audit.ts';
import { handler as startVerification } from './start-verification.ts';
import { handler as startExport } from './start-export.ts';
import { handler as getExport } from './get-export.ts';

const route = dispatch<'audit'>({
  'GET /api/audit': listAudit,
  'GET /api/audit/export.csv': exportAudit,
  'POST /api/audit/exports': startExport,
  'GET /api/audit/exports/{exportId}': getExport,
  'POST /api/audit/verify': verifyAudit,
  'POST /api/audit/verifications': startVerification,
  'GET /api/compliance': getCompliance,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
