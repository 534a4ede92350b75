import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { IdSchema } from '#shared/schemas/api/common.ts';
import { runJob } from '#shared/domain/jobs/runner.ts';
import { getDeps } from '#functions/lib/deps.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';
import { JOB_KINDS } from './job-kinds.ts';

const JobEventSchema = z.object({ ownerHospitalId: IdSchema, jobId: IdSchema });

/** Time left when the worker stops taking chunks and hands the job on: a chunk's worst case with room to spare. */
export const JOB_HANDOVER_MS = 60_000;

/**
 * The job worker (docs/jobs.md), invoked asynchronously with `{ ownerHospitalId, jobId }`: runs chunks from the job's
 * cursor while time is left, then hands what remains to a fresh invocation of itself. A failed run is retried by
 * Lambda's asynchronous retries and resumes from the cursor. Logs carry ids and counts only.
 */
export async function handler(event: unknown, context?: Context): Promise<{ done: boolean }> {
  startInvocation(context);
  const ref = JobEventSchema.parse(event);
  const deps = await getDeps();
  const timeLeft = () => (context ? context.getRemainingTimeInMillis() : Number.POSITIVE_INFINITY);
  try {
    const { done, job } = await runJob(ref, JOB_KINDS, deps, () => timeLeft() > JOB_HANDOVER_MS);
    if (!done) await deps.jobStarter.start(ref);
    logger.info('job run', {
      jobId: ref.jobId,
      kind: job?.kind,
      status: job?.status,
      processed: job?.processed,
      handedOn: !done,
    });
    return { done };
  } catch (error) {
    logger.error('job chunk failed', { jobId: ref.jobId, ...errorOrigin(error) });
    throw error;
  }
}
