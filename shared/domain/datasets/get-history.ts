import type { Caller } from '#shared/domain/auth/caller.ts';
import { loadReadableDataset, type ShareGrants } from './load-dataset.ts';
import type { DatasetRepository } from './ports.ts';
import type { AuditEvent, AuditLog } from '#shared/domain/ports.ts';

/** The dataset's audit trail, oldest first. */
export async function getHistory(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog; shares?: ShareGrants },
): Promise<{ items: Omit<AuditEvent, 'hospitalId'>[] }> {
  await loadReadableDataset(caller, datasetId, deps);
  const events = await deps.audit.listForDataset(caller.hospitalId, datasetId);
  return { items: events.map(({ hospitalId: _h, ...event }) => event) };
}
