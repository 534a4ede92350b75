import { revokeIntegration } from '#shared/domain/integrations/manage-integrations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { integrationDeps } from './deps.ts';

export const handler = httpHandler(
  'DELETE /api/integrations/{integrationId}',
  async ({ pathParameters }, caller, deps) =>
    revokeIntegration(pathParameters.integrationId, caller, integrationDeps(deps)),
);
