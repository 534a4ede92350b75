import { vi } from 'vitest';

/**
 * jsdom has no ResizeObserver; Chakra's sliders and popovers measure themselves with one (a popover on an animation
 * frame that may come after its test has ended). A stand-in that observes nothing is enough for tests that do not
 * depend on sizes.
 */
export function stubResizeObserver(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
