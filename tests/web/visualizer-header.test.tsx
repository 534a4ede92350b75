// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dataset, ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';
import { system } from '#web/components/ui/provider.tsx';

// NiiVue needs WebGL2, which jsdom lacks: a stand-in records the options it is built with and loads nothing.
const niivue = vi.hoisted(() => ({ options: [] as Record<string, unknown>[] }));
vi.mock('@niivue/niivue', () => ({
  SHOW_RENDER: { NEVER: 0 },
  SLICE_TYPE: { AXIAL: 0, CORONAL: 1, SAGITTAL: 2, MULTIPLANAR: 3, RENDER: 4 },
  DRAG_MODE: { contrast: 1, measurement: 2, angle: 7, crosshair: 8 },
  Niivue: class {
    volumes = [];
    meshes = [];
    opts = {};
    constructor(options: Record<string, unknown>) {
      niivue.options.push(options);
    }
    setDragMode() {}
    cleanup() {}
    attachToCanvas() {
      return Promise.resolve();
    }
    loadVolumes() {
      // Stays loading, so the page's loading text is on screen while the test reads it.
      return new Promise(() => undefined);
    }
  },
}));

// The dataset and its assets come from the API hooks; the test is about what the header and the viewer print.
const api = vi.hoisted(() => ({ dataset: undefined as unknown, assets: [] as unknown[] }));
vi.mock('#web/features/datasets/api/get-dataset.ts', () => ({
  useDataset: () => ({ data: api.dataset, error: undefined, isLoading: false }),
}));
vi.mock('#web/features/datasets/api/get-assets.ts', () => ({
  useAssets: () => ({ data: api.assets, error: undefined }),
}));

const { VisualizerRoute } = await import('#web/app/routes/visualizer/visualizer.tsx');
const { physicianLastName } = await import('#web/features/visualizer/utils/viewer-assets.ts');

const VOLUME: ProcessedAsset = {
  id: 'asset-t1',
  datasetId: 'ds-1',
  type: 'VOLUME',
  label: 'T1w volume',
  byteSize: 1024,
  mimeType: 'application/gzip',
  metadata: {},
  createdAt: '2026-01-01T10:00:00Z',
  url: 'http://localhost/asset-t1.nii.gz',
};

/** A Northside brain study as the demo seed holds it, with the ordering physician under test. */
function dataset(orderingPhysician: string): Dataset {
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
    orderingPhysician,
    department: 'Radiology',
    consentObtained: true,
    hipaaDisclosure: true,
    anonymization: { ...DEFAULT_DEIDENTIFICATION_POLICY.defaults },
    status: 'COMPLETE',
    sizeBytes: 1024,
    fileCount: 1,
    seriesCount: 1,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
  };
}

function renderVisualizer(orderingPhysician: string) {
  api.dataset = dataset(orderingPhysician);
  return render(
    <ChakraProvider value={system}>
      <MemoryRouter initialEntries={['/visualizer/ds-1']}>
        <Routes>
          <Route path="/visualizer/:datasetId" element={<VisualizerRoute />} />
        </Routes>
      </MemoryRouter>
    </ChakraProvider>,
  );
}

describe('visualizer header and loading state', () => {
  afterEach(() => {
    cleanup();
    niivue.options.length = 0;
    api.assets = [];
  });

  it('leaves the physician out of the header when the study names none, and prints "Dr." with a real name', () => {
    // Prepare
    stubResizeObserver();

    // Act
    const notGiven = renderVisualizer('Not given');
    const withoutName = notGiven.container.textContent ?? '';
    cleanup();
    const named = renderVisualizer('Dr. Jane Smith');
    const withName = named.container.textContent ?? '';

    // Assess
    expect(withoutName).not.toContain('Dr.');
    expect(withoutName).not.toContain('given');
    expect(withName).toContain('Dr. Smith');
    expect(physicianLastName('')).toBe('');
    expect(physicianLastName('Smith, Jane')).toBe('Smith');
  });

  it('shows one loading text while the volume loads: the page’s own, with NiiVue’s turned off', async () => {
    // Prepare
    stubResizeObserver();
    api.assets = [VOLUME];

    // Act
    renderVisualizer('Dr. Jane Smith');
    await waitFor(() => expect(niivue.options).toHaveLength(1));

    // Assess
    expect(screen.getAllByText(/loading/i)).toHaveLength(1);
    expect(screen.getByText('Loading volume...')).toBeTruthy();
    expect(niivue.options[0]?.loadingText).toBe('');
  });
});
