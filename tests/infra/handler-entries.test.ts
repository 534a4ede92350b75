import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '#infra/constructs/imaging-function.ts';
import { domainEntry, routedDomains } from '#infra/stacks/api-stack.ts';
import { ALL_PIPELINE_TASKS } from '#shared/definitions/state-machine.ts';

// The synth tests may stand in for an entry that is not written yet; this file says which entries the real synth needs.
const entries = [
  ...routedDomains().map((domain) => ({ name: `API domain ${domain}`, entry: domainEntry(domain) })),
  ...ALL_PIPELINE_TASKS.map((task) => ({ name: `pipeline task ${task.state}`, entry: task.entry })),
];

describe('Lambda entry files the CDK app bundles', () => {
  it.each(entries)('$name: $entry exists and exports handler', ({ entry }) => {
    // Prepare
    const file = path.join(REPOSITORY_ROOT, entry);

    // Assess
    expect(existsSync(file), `${entry} is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(
      /export\s+(const|async\s+function|function)\s+handler\b|export\s*\{[^}]*\bhandler\b/,
    );
  });
});
