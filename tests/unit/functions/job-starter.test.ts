/**
 * Handing a job to the job worker (docs/jobs.md) as only the cloud runs it: an asynchronous invocation of the worker
 * through the Lambda API, checked against the SDK's own client with aws-sdk-client-mock; and the worker handing a job
 * it could not finish in its time to itself.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createJobStarter } from '#functions/adapters/lambda/job-starter.ts';
import { createMemoryJobStore } from '#functions/adapters/memory/jobs-store.ts';
import { handler as runJobWorker, JOB_HANDOVER_MS } from '#functions/jobs/run-job.ts';
import { setDeps, type ServerDeps } from '#functions/lib/deps.ts';
import type { JobRef } from '#shared/domain/jobs/ports.ts';

const lambda = mockClient(LambdaClient);
afterEach(() => {
  lambda.reset();
  setDeps(undefined);
});

const ref: JobRef = { ownerHospitalId: 'h1', jobId: 'job-1' };

describe('the job starter', () => {
  const starter = () =>
    createJobStarter({ region: 'eu-west-1', functionName: 'imaging-dev-job-worker' }, new LambdaClient({}));

  it("invokes the worker asynchronously with the job's reference", async () => {
    // Arrange
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });

    // Act
    await starter().start(ref);

    // Assert
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ FunctionName: 'imaging-dev-job-worker', InvocationType: 'Event' });
    expect(JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array))).toEqual(ref);
  });

  it('fails the start when Lambda does not accept the event', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 500 });
    await expect(starter().start(ref)).rejects.toThrow('The job worker refused the job (500)');
  });
});

describe('the job worker', () => {
  it('hands a job on to itself when too little of its time is left for a chunk', async () => {
    // Arrange
    const jobs = createMemoryJobStore();
    await jobs.create({
      id: ref.jobId,
      kind: 'HOSPITAL_RESTORE',
      ownerHospitalId: 'h1',
      hospitalId: 'h1',
      status: 'QUEUED',
      input: {},
      cursor: null,
      chunks: 0,
      total: null,
      processed: 0,
      succeeded: 0,
      failed: 0,
      chunkFailures: 0,
      createdBy: { userId: 'u1', name: 'Pat Admin' },
      createdAt: '2026-02-01T10:00:00.000Z',
      updatedAt: '2026-02-01T10:00:00.000Z',
      finishedAt: null,
      error: null,
    });
    const handedOn: JobRef[] = [];
    setDeps({
      jobs,
      jobStarter: { start: async (r: JobRef) => void handedOn.push(r) },
      clock: { now: () => '2026-02-01T10:00:00.000Z' },
    } as unknown as ServerDeps);
    const context = { getRemainingTimeInMillis: () => JOB_HANDOVER_MS - 1 } as unknown as Context;

    // Act
    const outcome = await runJobWorker(ref, context);

    // Assert
    expect(outcome).toEqual({ done: false });
    expect(handedOn).toEqual([ref]);
    expect(await jobs.get(ref)).toMatchObject({ status: 'QUEUED', processed: 0 });
  });
});
