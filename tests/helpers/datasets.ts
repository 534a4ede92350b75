import { keys } from '#shared/definitions/table/keys.ts';
import { searchTextOf } from '#shared/domain/datasets/view.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { subOf } from '#tests/integration/datasets-harness.ts';

/** The body of POST /api/datasets for a diagnostic brain study with consent given; `fields` change any of it. */
export function newDatasetBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mrn: 'MRN-9',
    studyType: 'DIAGNOSTIC',
    studyDescription: 'Brain',
    clinicalIndication: 'Headache',
    orderingPhysician: 'Dr. B',
    department: 'Radiology',
    patientConsent: true,
    hipaaDisclosure: true,
    ...fields,
  };
}

/**
 * A complete Northside brain study as the repository stores it (with its search text), for tests that plant a dataset
 * straight into the table; `fields` name its id, hospital, team and owner and change anything else.
 */
export function datasetRecord(
  fields: Pick<DatasetRecord, 'id' | 'hospitalId' | 'teamId' | 'ownerUserId'> & Partial<DatasetRecord>,
): DatasetRecord {
  const now = new Date().toISOString();
  const base = {
    ownerName: 'Taylor Brooks',
    patientAlias: 'PT-000000000000',
    studyType: 'DIAGNOSTIC' as const,
    urgency: 'ROUTINE' as const,
    studyDescription: 'Brain MRI',
    clinicalIndication: 'Headache',
    orderingPhysician: 'Dr. A',
    department: 'Radiology',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
    status: 'COMPLETE' as const,
    sizeBytes: 10,
    fileCount: 1,
    seriesCount: 1,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  return { ...base, searchText: searchTextOf(base) };
}

/** The statuses the scale tests cycle through: mostly complete, some failed, some in the pipeline. */
export const SCALE_STATUSES: DatasetStatus[] = ['COMPLETE', 'COMPLETE', 'COMPLETE', 'FAILED', 'PROCESSING'];

/**
 * The clinical fields of the i-th dataset a test seeds straight into the table (one in a thousand described with a
 * rare word, for the search cases).
 */
export function seededStudyFields(i: number) {
  return {
    urgency: 'ROUTINE' as const,
    studyDescription: i % 1000 === 7 ? `Rare glioma follow-up ${i}` : `Brain MRI ${i}`,
    clinicalIndication: 'Headache',
    orderingPhysician: 'Dr. A',
    department: 'Radiology',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
  };
}

/**
 * The i-th of many Northside datasets as a stored item with its index keys, written straight to the table by scale
 * tests: a minute apart, alternating between two teams, owned by the demo member, one in a thousand a "Rare glioma".
 */
export function bulkDatasetItem(i: number, teams: readonly [string, string]) {
  const createdAt = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  const base = {
    id: `bulk-${String(i).padStart(5, '0')}`,
    hospitalId: 'hosp-northside',
    teamId: teams[i % 2]!,
    ownerUserId: subOf('member@northside.demo.local'),
    ownerName: 'Taylor Brooks',
    patientAlias: `PT-${i}`,
    studyType: 'DIAGNOSTIC' as const,
    ...seededStudyFields(i),
    status: SCALE_STATUSES[i % SCALE_STATUSES.length]!,
    sizeBytes: 1,
    fileCount: 1,
    seriesCount: 1,
    createdAt,
    updatedAt: createdAt,
  };
  return {
    ...keys.dataset(base.hospitalId, base.id),
    ...keys.datasetIndexes(base),
    entity: 'dataset',
    ...base,
    searchText: searchTextOf(base),
  };
}
