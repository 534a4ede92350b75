import { listIntegrations } from '#shared/domain/integrations/manage-integrations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { integrationDeps } from './deps.ts';

export const handler = httpHandler('GET /api/integrations', async (_request, caller, deps) =>
  listIntegrations(caller, integrationDeps(deps)),
);
