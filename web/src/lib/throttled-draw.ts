/**
 * Draws at most once per `ms`: the first request of a window schedules `draw`, later ones in that window join it.
 * Progress that arrives in bursts (a batch of discovered files, a finished part that completes dozens of files) is
 * then drawn a few times a second rather than once per event; with Chakra's styled components each draw allocates
 * enough that drawing every event grew the page by tens of MiB of garbage (docs/domain.md#uploads).
 */
export function throttledDraw(draw: () => void, ms: number): { request(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    request() {
      timer ??= setTimeout(() => {
        timer = undefined;
        draw();
      }, ms);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** How often upload and discovery progress is redrawn. */
export const PROGRESS_DRAW_MS = 250;
