// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the audit log is empty, the export is queued, read once finished, then its link is handed out.
const api = vi.hoisted(() => ({ calls: [] as { path: string; method: string; body?: unknown }[] }));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(async (path: string, _schema: unknown, options?: { method?: string; body?: unknown }) => {
    api.calls.push({ path, method: options?.method ?? 'GET', body: options?.body });
    const finished = { ...JOB, status: 'SUCCEEDED', total: null, processed: 3, succeeded: 3, finishedAt: AT };
    if (path === '/api/audit') return { items: [], nextToken: null };
    if (options?.method === 'POST') return { jobId: 'job-1', job: JOB };
    if (path === '/api/jobs/job-1') return finished;
    return {
      id: 'job-1',
      hospitalId: 'h1',
      job: finished,
      download: {
        url: 'https://bucket.test/exports/h1/job-1.csv?X-Amz-Expires=3600',
        expiresAt: '2026-02-01T11:00:05Z',
        fileName: 'audit-log-h1-2026-02-01.csv',
        byteSize: 4096,
      },
    };
  }),
}));

import { system } from '#web/components/ui/provider.tsx';
import { AuditLogTable } from '#web/features/compliance/components/audit-log-table.tsx';
import { queuedJob } from '#tests/helpers/fixtures.ts';

const AT = '2026-02-01T10:00:05Z';
const JOB: Job = queuedJob('AUDIT_EXPORT');

afterEach(() => {
  cleanup();
  api.calls.length = 0;
});
stubResizeObserver();

describe('the long-period audit export of the compliance center', () => {
  it('starts the job with the filters, shows its progress, then the link to the CSV', async () => {
    // Arrange
    render(
      <ChakraProvider value={system}>
        <AuditLogTable hospitalId="h1" />
      </ChakraProvider>,
    );

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Export long period' }));
    const progress = await screen.findByTestId('job-progress');
    const link = await screen.findByRole('link', { name: /audit-log-h1-2026-02-01\.csv/ }, { timeout: 4000 });

    // Assert
    expect(api.calls.find((c) => c.method === 'POST')).toEqual({
      path: '/api/audit/exports',
      method: 'POST',
      body: { hospitalId: 'h1' },
    });
    expect(progress.textContent).toContain('Audit export');
    expect(link.getAttribute('href')).toBe('https://bucket.test/exports/h1/job-1.csv?X-Amz-Expires=3600');
    expect(api.calls.some((c) => c.path === '/api/audit/exports/job-1')).toBe(true);
  });
});
