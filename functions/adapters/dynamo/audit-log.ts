import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { keys, withoutKeys } from '#shared/db/keys.ts';
import type { AuditEntry, AuditEvent, AuditLog } from '#shared/domain/datasets/ports.ts';
import type { Table } from './client.ts';
import { queryAll } from './expressions.ts';

/** The stored item of an audit event: keys in the hospital's audit partition, a fresh id, the time. */
export function auditItem(
  entry: AuditEntry,
  now: () => string = () => new Date().toISOString(),
): Record<string, unknown> {
  const event: AuditEvent = { ...entry, id: randomUUID(), at: entry.at ?? now() };
  return { ...keys.auditEvent(event.hospitalId, event), entity: 'audit', ...event };
}

/** Audit events: append-only items in the hospital's audit partition (they outlive a deleted dataset). */
export function createAuditLog(table: Table, now: () => string = () => new Date().toISOString()): AuditLog {
  return {
    async record(entry) {
      await table.doc.send(new PutCommand({ TableName: table.tableName, Item: auditItem(entry, now) }));
    },
    async listForDataset(hospitalId, datasetId) {
      const items = await queryAll(table, keys.auditPartition(hospitalId), keys.datasetAuditPrefix(datasetId));
      return items.map((item) => withoutKeys(item) as AuditEvent);
    },
  };
}
