import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { dispatch } from '#functions/lib/dispatch.ts';
import { handler as createDicomNode } from './create-dicom-node.ts';
import { handler as createDicomWebClient } from './create-dicomweb-client.ts';
import { handler as listIntegrations } from './list-integrations.ts';
import { handler as revokeIntegration } from './revoke-integration.ts';
import { handler as startIndexBackfill } from './start-index-backfill.ts';

const route = dispatch<'integrations'>({
  'GET /api/integrations': listIntegrations,
  'POST /api/integrations/dicomweb-clients': createDicomWebClient,
  'POST /api/integrations/dicom-nodes': createDicomNode,
  'DELETE /api/integrations/{integrationId}': revokeIntegration,
  'POST /api/integrations/dicomweb-index': startIndexBackfill,
});

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return route(event, context);
}
