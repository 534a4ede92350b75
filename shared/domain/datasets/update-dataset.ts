import type { Dataset, UpdateDatasetRequest } from '#shared/schemas/api/datasets.ts';
import { canManageDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError } from '#shared/domain/errors.ts';
import { applyPolicy, policyInForce } from '#shared/domain/settings/deidentification-policy.ts';
import type { DeidentificationPolicies } from '#shared/domain/settings/ports.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRepository, Pseudonymizer } from './ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { searchTextOf, toDataset } from './view.ts';

/**
 * Edits the patient context while the dataset is still CREATED (before any file is uploaded); de-identification
 * options only as far as the hospital's policy lets uploaders change them.
 */
export async function updateDataset(
  datasetId: string,
  request: UpdateDatasetRequest,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    audit: AuditLog;
    pseudonymizer: Pseudonymizer;
    clock: Clock;
    policies: DeidentificationPolicies;
  },
): Promise<Dataset> {
  const current = await loadVisibleDataset(caller, datasetId, deps);
  requirePermission(caller, 'UPLOAD_DICOM');
  if (!canManageDataset(caller, current)) throw new AccessDeniedError();
  if (current.status !== 'CREATED') throw new InvalidStateError();
  const { mrn, anonymization: requested, ...rest } = request;
  const context = requested
    ? {
        ...rest,
        anonymization: applyPolicy(requested, await policyInForce(caller.hospitalId, deps), current.anonymization),
      }
    : rest;
  const patientAlias = mrn ? await deps.pseudonymizer.patientAlias(caller.hospitalId, mrn) : current.patientAlias;
  const next = { ...current, ...context, patientAlias, updatedAt: deps.clock.now() };
  const updated = await deps.datasets.update(
    caller.hospitalId,
    datasetId,
    { ...context, patientAlias, updatedAt: next.updatedAt, searchText: searchTextOf(next) },
    ['CREATED'],
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'DATASET_UPDATED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { fields: Object.keys(request).map((k) => (k === 'mrn' ? 'patientAlias' : k)) },
  });
  return toDataset(updated);
}
