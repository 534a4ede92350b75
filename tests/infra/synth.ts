import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { Stack } from 'aws-cdk-lib';
import { createImagingApp, type BuildOptions } from '#infra/imaging-app.ts';
import { MISSING_ENTRY_FALLBACK_CONTEXT, REPOSITORY_ROOT } from '#infra/constructs/imaging-function.ts';

/** The context `cdk synth` would see (cdk.json feature flags), plus test settings. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

/**
 * Builds (and synthesizes) the whole app of one stage the way `cdk synth` does, minus esbuild bundling, which
 * is skipped so a test file synthesizes in seconds. Handler entries written in parallel may not exist yet: a
 * stand-in entry takes their place here only (tests/infra/handler-entries.test.ts reports which are missing).
 */
export function synthImagingApp(context: Record<string, unknown> = {}, options: BuildOptions = {}) {
  const built = createImagingApp(
    {
      context: {
        ...cdkJsonContext(),
        'aws:cdk:bundling-stacks': [],
        [MISSING_ENTRY_FALLBACK_CONTEXT]: 'tests/infra/fixtures/stand-in-handler.ts',
        ...context,
      },
    },
    { publishSiteBuild: false, ...options },
  );
  const assembly = built.app.synth();
  const template = (stack: Stack) =>
    Template.fromJSON(assembly.getStackByName(stack.stackName).template as Record<string, unknown>);
  return { ...built, assembly, template };
}

export type SynthesizedApp = ReturnType<typeof synthImagingApp>;
