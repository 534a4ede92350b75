import { AccessDeniedError } from '#shared/domain/errors.ts';
import { canManageDataset, isLeadOrAdmin, type Caller } from '#shared/domain/auth/caller.ts';
import type { Dataset } from '#shared/schemas/api/datasets.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { actorOf } from './delete-dataset.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRepository } from './ports.ts';
import { toDataset } from './view.ts';

/**
 * Puts or lifts a legal hold (docs/domain.md#legal-hold): a held dataset is never moved to the recycle bin nor purged,
 * by retention or by hand. A hospital admin holds any dataset of the hospital, a team lead the team's. Audited with
 * who, why and the dataset id.
 */
export async function setLegalHold(
  datasetId: string,
  input: { on: boolean; reason: string },
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog; clock: Clock },
): Promise<Dataset> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  if (!isLeadOrAdmin(caller) || caller.role === 'SUPER_ADMIN' || !canManageDataset(caller, dataset))
    throw new AccessDeniedError();
  const actor = actorOf(caller);
  const hold = input.on
    ? { reason: input.reason, since: deps.clock.now(), byUserId: actor.actorUserId, byName: actor.actorName }
    : undefined;
  const updated = await deps.datasets.setLegalHold(caller.hospitalId, datasetId, hold);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: input.on ? 'LEGAL_HOLD_PLACED' : 'LEGAL_HOLD_LIFTED',
    ...actor,
    details: { reason: input.reason, wasHeld: Boolean(dataset.legalHold) },
  });
  return toDataset(updated);
}
