// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileProgress } from '#shared/client/upload-client.ts';
import { system } from '#web/components/ui/provider.tsx';
import { UploadStep } from '#web/features/uploads/components/upload-step.tsx';
import { uploadProgressReducer, type UploadProgressState } from '#web/features/uploads/utils/upload-progress.ts';

const file = (fileIndex: number, status: FileProgress['status'], uploadedBytes = 0): FileProgress => ({
  fileIndex,
  path: `study/series-01/IM-${String(fileIndex).padStart(5, '0')}.dcm`,
  uploadedBytes,
  totalBytes: 100,
  status,
});

const noop = () => undefined;
function renderStep(state: UploadProgressState, fileCount: number) {
  return render(
    <ChakraProvider value={system}>
      <UploadStep
        phase={state.phase}
        overall={state.overall}
        fileCount={fileCount}
        inFlight={state.inFlight}
        onRetry={noop}
        onViewDatasets={noop}
        onUploadAnother={noop}
        onOpenDataset={noop}
      />
    </ChakraProvider>,
  );
}

describe('the upload step', () => {
  afterEach(cleanup);

  it('counts the files before the session answers, then lists the first 20 in flight, in order, with their progress', () => {
    const idle = renderStep({ phase: 'uploading', inFlight: {} }, 5000);
    expect(screen.getByText('Uploading 0 of 5000 files complete')).toBeTruthy();
    idle.unmount();

    // A part finished: files 0 to 9 are complete and leave; 10 to 39 are in flight, 10 half sent.
    const state = uploadProgressReducer(
      { phase: 'uploading', inFlight: {} },
      {
        type: 'progressed',
        overall: {
          uploadedBytes: 1050,
          totalBytes: 500_000,
          filesComplete: 10,
          filesTotal: 5000,
          partsSent: 1,
          partsSkipped: 0,
        },
        files: [
          ...Array.from({ length: 29 }, (_, i) => file(39 - i, 'UPLOADING')),
          file(10, 'UPLOADING', 50),
          ...Array.from({ length: 10 }, (_, i) => file(i, 'COMPLETE', 100)),
        ],
      },
    );
    renderStep(state, 5000);
    expect(screen.getByText('Uploading 10 of 5000 files complete')).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Files uploading' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(
      Array.from({ length: 20 }, (_, i) => `study/series-01/IM-${String(10 + i).padStart(5, '0')}.dcm`),
    );
    const progressOf = (row: HTMLElement) => within(row).getByRole('progressbar').getAttribute('aria-valuenow');
    expect([progressOf(rows[0]!), progressOf(rows[1]!)]).toEqual(['50', '0']);
  });
});
