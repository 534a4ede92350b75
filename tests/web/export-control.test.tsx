// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the export is queued, read once while it runs, then once finished with its link.
const api = vi.hoisted(() => ({
  calls: [] as { path: string; method: string; body?: unknown }[],
  reads: 0,
}));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(async (path: string, _schema: unknown, options?: { method?: string; body?: unknown }) => {
    api.calls.push({ path, method: options?.method ?? 'GET', body: options?.body });
    if (options?.method === 'POST') return { jobId: 'job-1', job: JOB };
    api.reads++;
    const done = api.reads > 1;
    return {
      id: 'job-1',
      datasetId: 'ds-1',
      format: 'dicom',
      job: done
        ? { ...JOB, status: 'SUCCEEDED', total: 2, processed: 2, succeeded: 2, finishedAt: '2026-02-01T10:00:05Z' }
        : { ...JOB, status: 'RUNNING', total: 2, processed: 1, succeeded: 1 },
      download: done
        ? {
            url: 'https://bucket.test/exports/h1/job-1.zip?X-Amz-Expires=3600',
            expiresAt: '2026-02-01T11:00:05Z',
            fileName: 'ds-1-dicom.zip',
            byteSize: 2048,
          }
        : null,
    };
  }),
}));

import { system } from '#web/components/ui/provider.tsx';
import { ExportControl } from '#web/features/datasets/components/export-control.tsx';
import { mayExport } from '#web/features/datasets/utils/export.ts';
import { queuedJob } from '#tests/helpers/fixtures.ts';

const JOB: Job = queuedJob('DATASET_EXPORT');

afterEach(() => {
  cleanup();
  api.calls.length = 0;
  api.reads = 0;
});
stubResizeObserver();

describe('the Export action of the dataset page', () => {
  it('starts an export in the chosen format, shows its progress, then the link and its expiry', async () => {
    // Arrange
    render(
      <ChakraProvider value={system}>
        <ExportControl datasetId="ds-1" />
      </ChakraProvider>,
    );

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.change(await screen.findByLabelText('Export format'), { target: { value: 'dicom' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Export' }));
    const progress = await screen.findByTestId('job-progress');
    const running = progress.getAttribute('data-status');
    const link = await screen.findByRole('link', { name: /ds-1-dicom\.zip/ }, { timeout: 4000 });

    // Assert
    expect(api.calls[0]).toEqual({ path: '/api/datasets/ds-1/exports', method: 'POST', body: { format: 'dicom' } });
    expect(api.calls[1]?.path).toBe('/api/datasets/ds-1/exports/job-1');
    expect(running).toBe('RUNNING');
    expect(link.getAttribute('href')).toBe('https://bucket.test/exports/h1/job-1.zip?X-Amz-Expires=3600');
    expect(screen.getByTestId('export-download').textContent).toContain('The link works until');
  });

  it('is offered with EXPORT_DATA for a COMPLETE dataset, and through a share only one granting export', () => {
    // Act
    const offered = [
      mayExport(['VIEW_DATASETS', 'EXPORT_DATA'], { status: 'COMPLETE' }),
      mayExport(['*'], { status: 'COMPLETE', sharedWithYou: ['view', 'export'] }),
    ];
    const withheld = [
      mayExport(['VIEW_DATASETS'], { status: 'COMPLETE' }),
      mayExport(['EXPORT_DATA'], { status: 'PROCESSING' }),
      mayExport(['EXPORT_DATA'], { status: 'COMPLETE', sharedWithYou: ['view', 'download'] }),
    ];

    // Assert
    expect(offered).toEqual([true, true]);
    expect(withheld).toEqual([false, false, false]);
  });
});
