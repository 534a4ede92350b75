import { createDicomWebClient } from '#shared/domain/integrations/manage-integrations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { integrationDeps } from './deps.ts';

export const handler = httpHandler('POST /api/integrations/dicomweb-clients', async ({ body }, caller, deps) =>
  createDicomWebClient(body, caller, integrationDeps(deps)),
);
