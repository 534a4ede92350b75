import { listJobResults } from '#shared/domain/jobs/view.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/jobs/{jobId}/results', async ({ pathParameters, query }, caller, deps) =>
  listJobResults(caller, pathParameters.jobId, query, deps),
);
