import type { CreateDatasetRequest, Dataset } from '#shared/schemas/api/datasets.ts';
import { requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { applyPolicy, policyInForce } from '#shared/domain/settings/deidentification-policy.ts';
import type { DeidentificationPolicies } from '#shared/domain/settings/ports.ts';
import type { OrganisationCounters, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { countPatient } from '#shared/domain/dashboards/counters.ts';
import { moveReportCounts, reportContribution } from '#shared/domain/reports/counters.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import type { DatasetRepository, Pseudonymizer } from './ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
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
    organisation: OrganisationCounters & Pick<OrganisationStore, 'getDepartment'>;
  },
): Promise<Dataset> {
  requirePermission(caller, 'UPLOAD_DICOM');
  const now = deps.clock.now();
  const { mrn, patientConsent, anonymization: requested, departmentId, ...context } = request;
  // The upload wizard's department is one of the caller's hospital's departments; its name is what the dataset shows.
  const department = departmentId ? await deps.organisation.getDepartment(caller.hospitalId, departmentId) : undefined;
  if (departmentId && !department)
    throw new ValidationError('VALIDATION_FAILED', {}, [{ path: 'departmentId', message: 'Invalid input' }]);
  if (department) context.department = department.name;
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
    departmentId: departmentId ?? null,
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
  await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { datasetCount: 1 });
  if (dataset.teamId)
    await deps.organisation.add(caller.hospitalId, { kind: 'team', teamId: dataset.teamId }, { datasetCount: 1 });
  await countPatient(deps.organisation, dataset);
  await moveReportCounts(deps.organisation, record, reportContribution(record, 1));
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
