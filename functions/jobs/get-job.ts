import { getJob } from '#shared/domain/jobs/view.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

export const handler = httpHandler('GET /api/jobs/{jobId}', async ({ pathParameters }, caller, deps) =>
  getJob(caller, pathParameters.jobId, deps),
);
