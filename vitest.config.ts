import { defineConfig } from 'vitest/config';

// One runner for every layer. Heavy suites (browser, local twin) live in tests/e2e and tests/integration
// and run in forks so a crash in one cannot take the others down.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
