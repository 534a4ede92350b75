import type { Context } from 'aws-lambda';
import { createAuditChainWriter } from '#functions/adapters/dynamo/audit-log.ts';
import { AUDIT_PENDING_ENTITY, createDynamoChainStore } from '#functions/adapters/dynamo/audit-pending.ts';
import { createDocumentClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { requireResource, serverEnv } from '#functions/lib/env.ts';
import { errorOrigin, logger, startInvocation } from '#functions/lib/logger.ts';
import { drainPending } from '#shared/domain/audit/batch-chain.ts';
import { TransientError } from '#shared/domain/errors.ts';
import { ENV } from '#shared/definitions/env.ts';
import {
  AuditAppendRequestSchema,
  AuditStreamEventSchema,
  type AuditAppendResult,
  type AuditStreamEvent,
} from '#shared/schemas/audit-append.ts';

/**
 * The audit appender (docs/domain.md#how-an-event-travels): the only function that writes a hospital's audit chain.
 * Triggered by the table's stream with the pending events requests wrote, it chains each hospital's pending events
 * in order and in batches (shared/domain/audit/batch-chain.ts). Other functions invoke it synchronously for two
 * things only: to chain what is pending for a hospital now (before a verification) and to keep a verification's
 * outcome on the head. Never logs an event (its details may name users).
 */
let table: Table | undefined;

function tableOf(): Table {
  if (!table) {
    const env = serverEnv();
    table = { doc: createDocumentClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT }), tableName: '' };
    table.tableName = requireResource(env, ENV.TABLE_NAME);
  }
  return table;
}

/** A request the appender refuses outright: neither a stream batch nor a request it knows. */
export class RefusedAuditRequest extends Error {
  override name = 'RefusedAuditRequest';
}

/** The hospitals whose pending events a stream batch announces, in the order they first appear. */
export function hospitalsOfStream(event: AuditStreamEvent): string[] {
  const hospitals = new Set<string>();
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || image?.entity?.S !== AUDIT_PENDING_ENTITY || !image.hospitalId) continue;
    hospitals.add(image.hospitalId.S);
  }
  return [...hospitals];
}

export async function handler(event: unknown, context?: Context): Promise<AuditAppendResult> {
  startInvocation(context);
  const own = tableOf();
  const stream = AuditStreamEventSchema.safeParse(event);
  if (stream.success && 'Records' in (event as object)) {
    // A failed drain fails the batch: the stream hands it again, and a drain is safe to repeat.
    let chained = 0;
    for (const hospitalId of hospitalsOfStream(stream.data)) chained += await drain(own, hospitalId);
    return { chained };
  }
  const parsed = AuditAppendRequestSchema.safeParse(event);
  if (!parsed.success) throw new RefusedAuditRequest('Not an audit appender request');
  const request = parsed.data;
  if (request.op === 'drain') return { chained: await drain(own, request.hospitalId) };
  try {
    await createAuditChainWriter(own).recordVerification(request.hospitalId, request.verification);
    return {};
  } catch (error) {
    logger.error('audit verification outcome not kept', { hospitalId: request.hospitalId, ...errorOrigin(error) });
    throw new TransientError('audit verification outcome not kept');
  }
}

async function drain(own: Table, hospitalId: string): Promise<number> {
  try {
    const result = await drainPending(createDynamoChainStore(own), hospitalId);
    if (result.chained > 0) logger.info('audit events chained', { hospitalId, ...result });
    return result.chained;
  } catch (error) {
    logger.error('audit chain drain failed', { hospitalId, ...errorOrigin(error) });
    throw new TransientError('audit chain drain failed');
  }
}
