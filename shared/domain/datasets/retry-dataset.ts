import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { canManageDataset, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError } from '#shared/domain/errors.ts';
import { changeStatus } from './change-status.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRepository, PipelineStarter } from './ports.ts';
import type { AuditLog, IdGenerator } from '#shared/domain/ports.ts';
import { toDataset } from './view.ts';

/**
 * Restarts the pipeline of a FAILED dataset (its owner, their team lead or a hospital admin): FAILED → UPLOADING,
 * then a new execution. Stages are idempotent, so work already done (e.g. de-identification) is not repeated.
 */
export async function retryDataset(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog; pipeline: PipelineStarter; ids: IdGenerator },
): Promise<Dataset> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  if (dataset.status !== 'FAILED') throw new InvalidStateError();
  const runId = deps.ids.newId();
  const updated = await changeStatus(deps, {
    hospitalId: caller.hospitalId,
    datasetId,
    from: ['FAILED'],
    to: 'UPLOADING',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    fields: { failureReason: undefined, lastRunId: runId },
    details: { retry: true, runId },
  });
  await deps.pipeline.start({ hospitalId: caller.hospitalId, datasetId, runId });
  return toDataset(updated);
}
