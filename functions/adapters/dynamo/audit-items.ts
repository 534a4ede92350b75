import { keys } from '#shared/definitions/table/keys.ts';
import type { ChainedAuditEvent } from '#shared/domain/audit/chain.ts';

/** An UpdateItem input (TableName, Key, expressions) written together with the append. */
export type AuditAlongsideUpdate = Record<string, unknown> & {
  TableName: string;
  Key: Record<string, unknown>;
  UpdateExpression: string;
};

/** The stored item of a chained audit event: keys for its position and the three listings, then the event. */
export function auditItem(event: ChainedAuditEvent): Record<string, unknown> {
  return { ...keys.auditEvent(event.hospitalId, event), entity: 'audit', ...event };
}
