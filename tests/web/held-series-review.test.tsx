// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Series } from '#shared/schemas/api/datasets.ts';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';

// The API is replaced: the test is about what the review shows and what it sends.
const api = vi.hoisted(() => ({
  calls: [] as { path: string; method: string; query?: Record<string, unknown>; body?: unknown }[],
}));
vi.mock('#web/lib/api-client.ts', () => ({
  apiRequest: vi.fn(
    async (
      path: string,
      _schema: unknown,
      options?: { method?: string; query?: { frame?: number }; body?: unknown },
    ) => {
      api.calls.push({ path, method: options?.method ?? 'GET', query: options?.query, body: options?.body });
      if (path.endsWith('/preview')) {
        const frame = options?.query?.frame ?? 0;
        // A 1x1 PNG stands for the frame: jsdom draws nothing.
        return {
          seriesId: '2.25.2',
          frame,
          frameCount: 3,
          width: 64,
          height: 64,
          image:
            'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
        };
      }
      return { ...SERIES, burnedInText: { ...SERIES.burnedInText!, releasedAt: '2026-01-02T10:00:00Z' } };
    },
  ),
}));

import { system } from '#web/components/ui/provider.tsx';
import { HeldSeriesReview } from '#web/features/datasets/components/held-series-review.tsx';
import { REVIEW_WARNING, spanRectangle, toImagePoint } from '#web/features/datasets/utils/redaction.ts';

const SERIES: Series = {
  id: '2.25.2',
  datasetId: 'ds-1',
  seriesInstanceUID: '2.25.2',
  description: 'Screen capture',
  seriesNumber: 2,
  modality: 'OT',
  sliceCount: 3,
  sizeBytes: 1024,
  selected: true,
  classification: null,
  burnedInText: { reasons: ['SECONDARY_CAPTURE'] },
  createdAt: '2026-01-01T10:00:00Z',
};

afterEach(() => {
  cleanup();
  api.calls.length = 0;
});
stubResizeObserver();

function renderReview(onClose = vi.fn()) {
  render(
    <ChakraProvider value={system}>
      <HeldSeriesReview datasetId="ds-1" series={SERIES} open onClose={onClose} />
    </ChakraProvider>,
  );
  return onClose;
}

describe('the review of a held series', () => {
  it('warns, shows the frames one at a time and steps through them', async () => {
    // Act
    renderReview();

    // Assert
    const review = await screen.findByTestId('held-series-review');
    expect(within(review).getByRole('alert').textContent).toContain(REVIEW_WARNING);
    await screen.findByAltText('Frame 1 of series 2');
    expect(screen.getByTestId('frame-position').textContent).toBe('Frame 1 of 3');
    expect((screen.getByRole('button', { name: 'Redact and release' }) as HTMLButtonElement).disabled).toBe(true);

    // Act: next frame, then the slider to the last
    fireEvent.click(screen.getByRole('button', { name: 'Next frame' }));
    await screen.findByAltText('Frame 2 of series 2');
    fireEvent.change(screen.getByRole('slider', { name: 'Frame' }), { target: { value: '2' } });
    await screen.findByAltText('Frame 3 of series 2');

    // Assert
    expect(api.calls.map((c) => c.query?.frame)).toEqual([0, 1, 2]);
    expect((screen.getByRole('button', { name: 'Next frame' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends drawn and typed rectangles in image pixels with "Redact and release"', async () => {
    // Arrange: the 64-pixel image is shown 256 pixels wide, so four screen pixels make one image pixel
    const onClose = renderReview();
    await screen.findByAltText('Frame 1 of series 2');
    const surface = screen.getByTestId('review-surface');
    surface.getBoundingClientRect = () => ({ left: 100, top: 50, width: 256, height: 256 }) as DOMRect;

    // Act: draw from (8, 8) to (40, 24) on the image's box, then type one
    fireEvent.pointerDown(surface, { clientX: 108, clientY: 58, pointerId: 1 });
    fireEvent.pointerMove(surface, { clientX: 140, clientY: 74, pointerId: 1 });
    fireEvent.pointerUp(surface, { clientX: 140, clientY: 74, pointerId: 1 });
    for (const [field, value] of [
      ['x', '0'],
      ['y', '60'],
      ['width', '64'],
      ['height', '4'],
    ])
      fireEvent.change(screen.getByRole('spinbutton', { name: `Rectangle ${field}` }), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Add rectangle' }));
    fireEvent.click(screen.getByRole('button', { name: 'Redact and release' }));

    // Assert
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = api.calls.find((c) => c.method === 'POST')!;
    expect(sent.path).toBe('/api/datasets/ds-1/series/2.25.2/redact');
    expect(sent.body).toEqual({
      rectangles: [
        { x: 2, y: 2, width: 9, height: 5 },
        { x: 0, y: 60, width: 64, height: 4 },
      ],
    });
  });

  it('turns screen points into image pixels, clamped to the image, whichever way a rectangle is drawn', () => {
    const box = { left: 0, top: 0, width: 200, height: 100 };
    const image = { width: 100, height: 50 };
    expect(toImagePoint(51, 21, box, image)).toEqual({ x: 25, y: 10 });
    expect(toImagePoint(-5, 500, box, image)).toEqual({ x: 0, y: 49 });
    expect(spanRectangle({ x: 9, y: 4 }, { x: 2, y: 1 })).toEqual({ x: 2, y: 1, width: 8, height: 4 });
  });
});
