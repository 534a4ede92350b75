import type { CreateDatasetRequest, Dataset } from '#shared/schemas/api/datasets.ts';
import { requirePermission, type Caller } from '#shared/domain/access/caller.ts';
import { applyPolicy, policyInForce } from '#shared/domain/hospitals/deidentification-policy.ts';
import type { DeidentificationPolicies } from '#shared/domain/hospitals/ports.ts';
import type { AuditLog, Clock, DatasetRepository, IdGenerator, Pseudonymizer } from './ports.ts';
import { searchTextOf, toDataset } from './view.ts';

/**
 * Creates a dataset in status CREATED ("Save as Draft" and the first step of an upload). The MRN is turned into
 * a keyed hash per hospital (patientAlias) and dropped: it is never stored or logged. De-identification options come
 * from the hospital's policy; the uploader may change only those the policy leaves open.
 */
export async function createDataset(
  request: CreateDatasetRequest,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    audit: AuditLog;
    pseudonymizer: Pseudonymizer;
    clock: Clock;
    ids: IdGenerator;
    policies: DeidentificationPolicies;
  },
): Promise<Dataset> {
  requirePermission(caller, 'UPLOAD_DICOM');
  const now = deps.clock.now();
  const { mrn, patientConsent, anonymization: requested, ...context } = request;
  const anonymization = applyPolicy(requested, await policyInForce(caller.hospitalId, deps));
  const patientAlias = await deps.pseudonymizer.patientAlias(caller.hospitalId, mrn);
  const dataset = {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    teamId: caller.teamId,
    ownerUserId: caller.userId,
    ownerName: `${caller.firstName} ${caller.lastName}`.trim(),
    patientAlias,
    ...context,
    anonymization,
    consentObtained: patientConsent,
    status: 'CREATED' as const,
    sizeBytes: 0,
    fileCount: 0,
    seriesCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  const record = { ...dataset, searchText: searchTextOf(dataset) };
  await deps.datasets.create(record);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId: dataset.id,
    action: 'DATASET_CREATED',
    actorUserId: caller.userId,
    actorName: dataset.ownerName,
    details: { studyType: dataset.studyType, urgency: dataset.urgency, anonymization: dataset.anonymization },
  });
  return toDataset(record);
}
