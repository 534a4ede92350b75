// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { type Dataset } from '#shared/schemas/api/datasets.ts';
import { DATASET_STATUSES } from '#shared/vocabulary/datasets.ts';
import { system } from '#web/components/ui/provider.tsx';
import { DatasetCard } from '#web/features/datasets/components/dataset-card.tsx';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';

function dataset(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: 'ds-1',
    hospitalId: 'hosp-northside',
    teamId: 'team-1',
    ownerUserId: 'u1',
    ownerName: 'Taylor Brooks',
    patientAlias: 'PT-ABC123',
    studyType: 'DIAGNOSTIC',
    urgency: 'ROUTINE',
    studyDescription: 'Brain MRI',
    clinicalIndication: 'Headache',
    orderingPhysician: 'Dr. Lee',
    department: 'Radiology',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
    status: 'COMPLETE',
    sizeBytes: 1024 * 1024 * 3,
    fileCount: 10,
    seriesCount: 2,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

function renderCard(d: Dataset) {
  return render(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <DatasetCard dataset={d} />
      </MemoryRouter>
    </ChakraProvider>,
  );
}

afterEach(cleanup);

const LABELS: Record<string, string> = {
  CREATED: 'ready for upload',
  UPLOADING: 'Files are being uploaded',
  ANONYMIZING: 'Removing patient identifiers',
  CLASSIFYING: 'AI analysis in progress',
  PROCESSING: 'Final processing steps',
  COMPLETE: 'Ready for analysis',
  FAILED: 'Processing failed',
};
const PROGRESS: Record<string, number | undefined> = {
  UPLOADING: 20,
  ANONYMIZING: 40,
  CLASSIFYING: 60,
  PROCESSING: 80,
};

describe('dataset card', () => {
  it.each(DATASET_STATUSES.map((s) => [s]))(
    'shows the status label for %s and a progress bar only while active',
    (status) => {
      // Prepare / Act
      renderCard(dataset({ status }));
      // Assess
      expect(screen.getByText(LABELS[status]!)).toBeTruthy();
      const bar = screen.queryByRole('progressbar');
      if (PROGRESS[status] === undefined) expect(bar).toBeNull();
      else expect(bar?.getAttribute('aria-valuenow')).toBe(String(PROGRESS[status]));
    },
  );

  it('links View to the visualizer and the title to the dataset page, and formats the size', () => {
    renderCard(dataset());
    expect(screen.getByRole('link', { name: 'View Brain MRI' }).getAttribute('href')).toBe('/visualizer/ds-1');
    expect(screen.getByRole('link', { name: 'Brain MRI' }).getAttribute('href')).toBe('/datasets/ds-1');
    expect(screen.getByText(/3 MB/)).toBeTruthy();
  });

  it('shows why a dataset failed', () => {
    renderCard(
      dataset({ status: 'FAILED', failureReason: 'No valid DICOM files detected. Upload DICOM files to continue.' }),
    );
    expect(screen.getByText('No valid DICOM files detected. Upload DICOM files to continue.')).toBeTruthy();
  });
});
