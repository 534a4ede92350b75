import { vi } from 'vitest';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';

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

/**
 * The site's runtime configuration for a component test: the API at http://api.test (what the tests' fetch stubs
 * answer), a user pool that is never called, and the mode the test needs (`local` shows the twin's demo affordances).
 */
export function setTestRuntimeConfig(mode: 'cloud' | 'local'): void {
  setRuntimeConfig({
    region: 'us-east-1',
    userPoolId: 'p',
    userPoolClientId: 'c',
    apiBaseUrl: 'http://api.test',
    mode,
    demoAccounts: [],
  });
}
