// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the test is about what the bin shows and that Restore calls the restore route.
// With `paged`, the bin holds two pages: the first answers a next token, which the second page is asked with.
const api = vi.hoisted(() => ({ restored: [] as string[], paged: false, queries: [] as unknown[] }));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(async (path: string, _schema: unknown, options?: { method?: string; query?: object }) => {
    if (options?.method === 'POST') {
      api.restored.push(path);
      return {};
    }
    api.queries.push(options?.query);
    const second = api.paged && (options?.query as { nextToken?: string } | undefined)?.nextToken === 'page-2';
    return {
      nextToken: api.paged && !second ? 'page-2' : null,
      items: api.restored.length
        ? []
        : [
            {
              id: second ? 'ds-2' : 'ds-1',
              hospitalId: 'h1',
              teamId: 't1',
              ownerUserId: 'u1',
              ownerName: 'Taylor Brooks',
              patientAlias: 'PT-1',
              studyType: 'DIAGNOSTIC',
              urgency: 'ROUTINE',
              studyDescription: second ? 'Spine MRI' : 'Brain MRI',
              clinicalIndication: 'Headache',
              orderingPhysician: 'Dr. A',
              department: 'Radiology',
              consentObtained: true,
              hipaaDisclosure: true,
              anonymization: {},
              status: 'COMPLETE',
              sizeBytes: 10,
              fileCount: 1,
              seriesCount: 1,
              createdAt: '2026-01-01T00:00:00.000Z',
              updatedAt: '2026-01-01T00:00:00.000Z',
              deletedAt: '2026-02-01T10:00:00.000Z',
              purgeAfter: '2026-03-03T10:00:00.000Z',
              deletedByUserId: 'u2',
              deletedByName: 'Jordan Patel',
              deletionReason: 'Wrong patient',
            },
          ],
    };
  }),
}));

import { system } from '#web/components/ui/provider.tsx';
import { RecycleBin } from '#web/features/datasets/components/recycle-bin.tsx';

afterEach(cleanup);
stubResizeObserver();

describe("the hospital admin's recycle bin", () => {
  it('lists who deleted a dataset, why and when it is purged, and restores it', async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <RecycleBin />
        </SWRConfig>
      </ChakraProvider>,
    );
    const row = await screen.findByTestId('recycle-bin-row');
    expect(within(row).getByText('Jordan Patel')).toBeTruthy();
    expect(within(row).getByText('Wrong patient')).toBeTruthy();

    // Act
    fireEvent.click(within(row).getByRole('button', { name: 'Restore Brain MRI' }));

    // Assess
    await waitFor(() => expect(api.restored).toEqual(['/api/datasets/ds-1/restore']));
    await screen.findByText('The recycle bin is empty.');
  });

  it("pages with the server's next token: Next shows the second page, Previous the first again", async () => {
    // Arrange
    api.restored.length = 0;
    api.paged = true;
    api.queries.length = 0;
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <RecycleBin />
        </SWRConfig>
      </ChakraProvider>,
    );
    await screen.findByText('Brain MRI (Diagnostic)');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Spine MRI (Diagnostic)');
    const secondPageNext = (screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled;
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));

    // Assert
    await screen.findByText('Brain MRI (Diagnostic)');
    expect(api.queries).toContainEqual({ limit: 100, nextToken: 'page-2' });
    expect(api.queries[0]).toEqual({ limit: 100 });
    expect(secondPageNext).toBe(true);
    expect(screen.getByText('Page 1')).toBeTruthy();
  });
});
