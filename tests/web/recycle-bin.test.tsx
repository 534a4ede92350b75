// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the test is about what the bin shows and that Restore calls the restore route.
const api = vi.hoisted(() => ({ restored: [] as string[] }));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(async (path: string, _schema: unknown, options?: { method?: string }) => {
    if (options?.method === 'POST') {
      api.restored.push(path);
      return {};
    }
    return {
      nextToken: null,
      items: api.restored.length
        ? []
        : [
            {
              id: 'ds-1',
              hospitalId: 'h1',
              teamId: 't1',
              ownerUserId: 'u1',
              ownerName: 'Taylor Brooks',
              patientAlias: 'PT-1',
              studyType: 'DIAGNOSTIC',
              urgency: 'ROUTINE',
              studyDescription: 'Brain MRI',
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
});
