import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import type { AuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { createPendingAuditWriter } from '#functions/adapters/dynamo/audit-pending.ts';
import type { Table } from '#functions/adapters/dynamo/client.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { AuditAppendResultSchema, type AuditAppendRequest } from '#shared/schemas/audit-append.ts';

/**
 * The audit trail as a deployed function writes it (docs/domain.md#how-an-event-travels): an event is one put of a
 * pending item on the table, and the request goes on; the audit appender, the one writer of the chain, chains it
 * behind from the table's stream. The appender is invoked synchronously only to chain a hospital's pending events
 * now (before a verification walks the chain) and to keep a verification's outcome on the head; whatever fails
 * there is a TransientError for the caller (the API answers 503).
 */
export function createDeferredAuditWriter(
  options: { region: string; functionName: string; endpoint?: string },
  table: Table,
  client?: LambdaClient,
): AuditChainWriter {
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

  async function invoke(request: AuditAppendRequest): Promise<void> {
    const answer = await lambda.send(
      new InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'RequestResponse',
        Payload: new TextEncoder().encode(JSON.stringify(request)),
      }),
    );
    const body: unknown = answer.Payload?.length ? JSON.parse(new TextDecoder().decode(answer.Payload)) : {};
    if (answer.FunctionError) throw new TransientError('audit appender failed');
    AuditAppendResultSchema.parse(body);
  }

  return {
    append: createPendingAuditWriter(table),
    async recordVerification(hospitalId, verification) {
      await invoke({ op: 'recordVerification', hospitalId, verification });
    },
    async settle(hospitalId) {
      await invoke({ op: 'drain', hospitalId });
    },
  };
}
