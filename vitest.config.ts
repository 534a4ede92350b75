import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_PROJECTS } from './tests/projects.ts';

// One runner for every layer, split into projects (tests/projects.ts) so `--project unit` stays fast; `vitest run`
// runs them all in one report. Heavy suites (browser, local twin) run in forks so a crash in one cannot take the
// others down.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // Notices two libraries print on every use, whatever the test: oidc-provider's development-mode warnings (the
    // tests' identity provider runs in that mode on purpose) and samlify's note on IdP metadata without a logout URL.
    onConsoleLog: (log) =>
      log.startsWith('oidc-provider ') || log.includes('missing endpoint of SingleLogoutService') ? false : undefined,
    // The AWS SDK's notice that its releases from 2027 need Node 22 would print once per worker and twin process;
    // the supported runtime is stated in README.md. Child processes (the twin's stand-ins) inherit the variable.
    // The functions' structured logs stay out of the report (functions/lib/logger.ts); a test may turn them on.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', IWS_SILENT_LOGS: '1' },
    projects: TEST_PROJECTS.map((project, order) => ({
      extends: true,
      test: {
        name: project.name,
        // Vitest runs the projects of one group order together: the pure ones share the first, the others follow one
        // after the other, each with its own worker count.
        sequence: { groupOrder: project.workers === 'all-cores' ? 0 : order },
        maxWorkers: project.workers === 'all-cores' ? Math.max(1, availableParallelism()) : 1,
        include: [...project.include],
        ...(project.exclude ? { exclude: [...configDefaults.exclude, ...project.exclude] } : {}),
      },
    })),
  },
});
