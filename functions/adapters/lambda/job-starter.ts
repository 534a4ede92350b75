import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { JobStarter } from '#shared/domain/jobs/ports.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

/**
 * Hands a job to the job worker (docs/jobs.md) as an asynchronous invocation (InvocationType Event): Lambda queues the
 * event, answers 202 at once and retries a failed run twice (AWS Lambda Developer Guide, asynchronous invocation).
 * The worker hands a job it could not finish in time to itself the same way.
 */
export function createJobStarter(
  options: { region: string; functionName?: string; endpoint?: string },
  client?: LambdaClient,
): JobStarter {
  const lambda =
    client ??
    prepareClient(
      new LambdaClient({
        region: options.region,
        ...(options.endpoint
          ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : {}),
      }),
    );
  return {
    async start(ref) {
      if (!options.functionName) throw new Error('JOB_WORKER_FUNCTION is not set');
      const answer = await lambda.send(
        new InvokeCommand({
          FunctionName: options.functionName,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(ref)),
        }),
      );
      if (answer.StatusCode !== 202) throw new Error(`The job worker refused the job (${answer.StatusCode})`);
    },
  };
}
