import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { keys, withoutKeys } from '../../../shared/db/keys.ts';
import type { AuditEvent, AuditLog } from '../../../shared/domain/datasets/ports.ts';
import type { Table } from './client.ts';
import { queryAll } from './expressions.ts';

/** Audit events: append-only items in the hospital's audit partition (they outlive a deleted dataset). */
export function createAuditLog(table: Table, now: () => string = () => new Date().toISOString()): AuditLog {
  return {
    async record(event) {
      const item: AuditEvent = { ...event, id: randomUUID(), at: event.at ?? now() };
      await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.auditEvent(item.hospitalId, item), entity: 'audit', ...item } }));
    },
    async listForDataset(hospitalId, datasetId) {
      const items = await queryAll(table, keys.auditPartition(hospitalId), keys.datasetAuditPrefix(datasetId));
      return items.map((item) => withoutKeys(item) as AuditEvent);
    },
  };
}
