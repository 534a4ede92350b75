// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Series } from '#shared/schemas/api/datasets.ts';
import { system } from '#web/components/ui/provider.tsx';
import { SeriesTable } from '#web/features/datasets/components/series-table.tsx';
import { burnedInTextNotice, canReleaseHeldSeries } from '#web/features/datasets/utils/burned-in-text.ts';

function series(seriesNumber: number, overrides: Partial<Series> = {}): Series {
  return {
    id: `2.25.${seriesNumber}`,
    datasetId: 'ds-1',
    seriesInstanceUID: `2.25.${seriesNumber}`,
    description: `Series description ${seriesNumber}`,
    seriesNumber,
    modality: 'MR',
    sliceCount: 8,
    sizeBytes: 1024,
    selected: true,
    classification: null,
    createdAt: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

const ROWS = [
  series(1),
  series(2, { burnedInText: { reasons: ['SECONDARY_CAPTURE'] } }),
  series(3, {
    burnedInText: { reasons: ['BURNED_IN_ANNOTATION'], releasedAt: '2026-01-02T10:00:00Z', releasedByUserId: 'u' },
  }),
];

function renderTable(canRelease: boolean) {
  return render(
    <ChakraProvider value={system}>
      <SeriesTable datasetId="ds-1" series={ROWS} thumbnails={[]} canEdit canSelect={false} canRelease={canRelease} />
    </ChakraProvider>,
  );
}

afterEach(cleanup);

describe('series held for possible burned-in text', () => {
  it('says why a series is held, and that a released one was released', () => {
    // Act
    renderTable(false);

    // Assess
    const rows = screen.getAllByTestId('series-row');
    expect(within(rows[0]!).queryByTestId('burned-in-text-notice')).toBeNull();
    expect(rows[1]!.getAttribute('data-held')).toBe('true');
    expect(within(rows[1]!).getByText('Held: possible burned-in text')).toBeTruthy();
    expect(within(rows[1]!).getByText(/a secondary capture \(screenshot\)/)).toBeTruthy();
    expect(
      within(rows[1]!).getByText(/left out of the report until a team lead or admin reviews and releases it/),
    ).toBeTruthy();
    expect(rows[2]!.getAttribute('data-held')).toBeNull();
    expect(within(rows[2]!).getByText(/Released for processing/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Release series/ })).toBeNull();
  });

  it('offers the release of a held series to those who may release it', () => {
    // Act
    renderTable(true);

    // Assess
    expect(screen.getAllByRole('button', { name: /Release series/ }).map((b) => b.textContent)).toEqual([
      'Release series 2',
    ]);
    expect(screen.getAllByRole('button', { name: /Review series/ }).map((b) => b.textContent)).toEqual([
      'Review series 2',
    ]);
  });

  it('lets leads and admins release only while the pipeline is not writing', () => {
    expect(canReleaseHeldSeries('TEAM_LEAD', 'COMPLETE')).toBe(true);
    expect(canReleaseHeldSeries('HOSPITAL_ADMIN', 'FAILED')).toBe(true);
    expect(canReleaseHeldSeries('TEAM_MEMBER', 'COMPLETE')).toBe(false);
    expect(canReleaseHeldSeries('GUEST', 'COMPLETE')).toBe(false);
    expect(canReleaseHeldSeries('TEAM_LEAD', 'PROCESSING')).toBe(false);
    expect(burnedInTextNotice(series(9))).toBeUndefined();
    const redacted = series(4, {
      burnedInText: {
        reasons: ['SCREEN_SAVE'],
        releasedAt: '2026-01-02T10:00:00Z',
        redactions: [
          { x: 0, y: 0, width: 10, height: 10 },
          { x: 20, y: 0, width: 5, height: 5 },
        ],
      },
    });
    expect(burnedInTextNotice(redacted)).toMatchObject({ held: false, redacted: '2 regions blanked in every frame' });
  });
});

describe('a series whose processing failed', () => {
  it('shows a Failed badge with the reason; the other series show none', () => {
    // Arrange
    const reason = 'The diffusion series has too few gradient directions for tractography.';

    // Act
    render(
      <ChakraProvider value={system}>
        <SeriesTable
          datasetId="ds-1"
          series={[series(1), series(2, { failureReason: reason })]}
          thumbnails={[]}
          canEdit={false}
          canSelect={false}
        />
      </ChakraProvider>,
    );

    // Assess
    const rows = screen.getAllByTestId('series-row');
    expect(within(rows[0]!).queryByTestId('series-failure')).toBeNull();
    expect(rows[0]!.getAttribute('data-failed')).toBeNull();
    expect(rows[1]!.getAttribute('data-failed')).toBe('true');
    const failure = within(rows[1]!).getByTestId('series-failure');
    expect(within(failure).getByText('Failed')).toBeTruthy();
    expect(within(failure).getByText(reason)).toBeTruthy();
  });
});
