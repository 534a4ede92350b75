import type { Context } from 'aws-lambda';
import { createAuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { isConditionFailure } from '#functions/adapters/dynamo/expressions.ts';
import { createDocumentClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { requireResource, serverEnv } from '#functions/lib/env.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';
import { AUDIT_WRITE_PARTITION_PATTERNS } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { ENV } from '#shared/definitions/env.ts';
import { AuditAppendRequestSchema, type AuditAppendResult } from '#shared/schemas/audit-append.ts';

/**
 * The audit appender (docs/domain.md#audit-trail): the only function allowed to write a hospital's audit events and
 * chain head. Other functions invoke it synchronously with an event, or with a verification outcome. It checks what
 * it is sent: the update that may go with an event must be on this table and outside the audit partitions, so no
 * caller can use it to rewrite the trail. Never logs the event (its details may name users).
 */
let table: Table | undefined;
/** One writer per container: it remembers what it learnt of the table (createAuditChainWriter). */
let chainWriter: ReturnType<typeof createAuditChainWriter> | undefined;

function tableOf(): Table {
  if (!table) {
    const env = serverEnv();
    table = { doc: createDocumentClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT }), tableName: '' };
    table.tableName = requireResource(env, ENV.TABLE_NAME);
  }
  return table;
}

const AUDIT_PARTITIONS = AUDIT_WRITE_PARTITION_PATTERNS.map(
  (pattern) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ),
);

/** A request the appender refuses outright: malformed, or an update aimed at the trail itself or another table. */
export class RefusedAuditRequest extends Error {
  override name = 'RefusedAuditRequest';
}

export async function handler(event: unknown, context?: Context): Promise<AuditAppendResult> {
  startInvocation(context);
  const parsed = AuditAppendRequestSchema.safeParse(event);
  if (!parsed.success) throw new RefusedAuditRequest('Not an audit append request');
  const request = parsed.data;
  const own = tableOf();
  const writer = (chainWriter ??= createAuditChainWriter(own));
  try {
    if (request.op === 'recordVerification') {
      await writer.recordVerification(request.hospitalId, request.verification);
      return {};
    }
    const { alongside } = request;
    if (alongside) {
      const pk = alongside.Key[TABLE_KEYS.primary.pk];
      if (alongside.TableName !== own.tableName || typeof pk !== 'string' || AUDIT_PARTITIONS.some((p) => p.test(pk)))
        throw new RefusedAuditRequest('The update that goes with an event must be on the table, outside the trail');
    }
    await writer.append(request.entry, alongside as Parameters<typeof writer.append>[1]);
    return {};
  } catch (error) {
    if (error instanceof RefusedAuditRequest) throw error;
    logger.error('audit append failed', { op: request.op, hospitalId: hospitalOf(request), ...errorOrigin(error) });
    // The caller's own condition (a dataset no longer in the status it expected) is told apart from the rest.
    if (isConditionFailure(error)) {
      const refused = new Error('Condition of the update does not hold');
      refused.name = 'ConditionalCheckFailedException';
      throw refused;
    }
    throw new TransientError('audit append failed');
  }
}

function hospitalOf(request: { op: string; hospitalId?: string; entry?: { hospitalId: string } }): string | undefined {
  return request.hospitalId ?? request.entry?.hospitalId;
}
