import { createDicomNode } from '#shared/domain/integrations/manage-integrations.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { integrationDeps } from './deps.ts';

export const handler = httpHandler('POST /api/integrations/dicom-nodes', async ({ body }, caller, deps) =>
  createDicomNode(body, caller, integrationDeps(deps)),
);
