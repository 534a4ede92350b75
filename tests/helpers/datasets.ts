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
