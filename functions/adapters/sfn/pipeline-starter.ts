import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { PipelineStarter } from '#shared/domain/datasets/ports.ts';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

/** Starts the dataset pipeline; the execution name is unique per run (`<datasetId>-<runId>`, within SFN's 80 chars). */
export function createPipelineStarter(
  options: { region: string; stateMachineArn?: string; endpoint?: string },
  client?: SFNClient,
): PipelineStarter {
  const sfn =
    client ??
    prepareClient(
      new SFNClient({
        region: options.region,
        ...(options.endpoint
          ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : {}),
      }),
    );
  return {
    async start(input) {
      if (!options.stateMachineArn) throw new Error('STATE_MACHINE_ARN is not set');
      try {
        await sfn.send(
          new StartExecutionCommand({
            stateMachineArn: options.stateMachineArn,
            name: `${input.datasetId}-${input.runId}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 80),
            input: JSON.stringify(input),
          }),
        );
      } catch (error) {
        // Same name = same run (a retried request): it is already started.
        if (!(error instanceof Error && error.name === 'ExecutionAlreadyExists')) throw error;
      }
    },
  };
}
