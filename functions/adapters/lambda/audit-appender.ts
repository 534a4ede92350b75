import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { prepareClient } from '#functions/adapters/aws-clients.ts';
import type { AuditAlongsideUpdate, AuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { AuditAppendResultSchema, type AuditAppendRequest } from '#shared/schemas/audit-append.ts';

/** The errors the appender passes back by name, so callers tell a false condition from a lost race. */
const PASSED_BACK = new Set(['ConditionalCheckFailedException', 'TransientError']);

/**
 * Appends through the audit appender function, the one writer of the audit trail (docs/domain.md#audit-trail): a
 * synchronous invocation, so the caller's request ends only once its event is in the chain. The appender's own
 * condition failure comes back as ConditionalCheckFailedException; anything else that fails there is a
 * TransientError for the caller (the pipeline retries it, the API answers 503).
 */
export function createInvokedAuditWriter(
  options: { region: string; functionName: string; endpoint?: string },
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
    if (answer.FunctionError) {
      const name = (body as { errorType?: unknown }).errorType;
      if (typeof name === 'string' && PASSED_BACK.has(name)) {
        if (name === 'TransientError') throw new TransientError('audit appender asked for a retry');
        const error = new Error('The audit appender refused the write: its condition does not hold');
        error.name = name;
        throw error;
      }
      throw new TransientError('audit appender failed');
    }
    AuditAppendResultSchema.parse(body);
  }

  return {
    append: (entry, alongside?: AuditAlongsideUpdate) =>
      invoke({ op: 'append', entry, ...(alongside ? { alongside } : {}) }),
    async recordVerification(hospitalId, verification) {
      await invoke({ op: 'recordVerification', hospitalId, verification });
    },
  };
}
