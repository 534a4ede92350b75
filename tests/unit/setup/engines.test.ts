import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `engines` in package.json says the oldest Node.js the product runs on (README, "Requirements"). Every dependency must
 * accept that version too, except those named here with what makes them run on it.
 */
const BRIDGED: Record<string, string> = {
  // Its Task timeouts call Promise.withResolvers (Node 22); infra/local/promise-with-resolvers.ts installs it first.
  'aws-local-stepfunctions': 'infra/local/promise-with-resolvers.ts',
};

const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

describe('engines', () => {
  const root = manifest(join(process.cwd(), 'package.json'));
  const oldest = semver.minVersion(root.engines.node)!;

  it("is met by this machine's Node.js", () => {
    expect(semver.satisfies(process.versions.node, root.engines.node)).toBe(true);
  });

  it('is accepted by every direct dependency, or the dependency is bridged by a named module', () => {
    const refusing: string[] = [];
    for (const name of Object.keys({ ...root.dependencies, ...root.devDependencies })) {
      const range = manifest(join(process.cwd(), 'node_modules', name, 'package.json')).engines?.node;
      if (range === undefined || semver.satisfies(oldest, range)) continue;
      if (BRIDGED[name] === undefined) refusing.push(`${name} wants ${range}`);
    }
    expect(refusing, `engines.node ${root.engines.node}`).toEqual([]);
  });

  it('names only bridges that are still needed and still there', () => {
    for (const [name, bridge] of Object.entries(BRIDGED)) {
      const range = manifest(join(process.cwd(), 'node_modules', name, 'package.json')).engines?.node;
      expect(semver.satisfies(oldest, range ?? '*'), name).toBe(false);
      expect(readFileSync(join(process.cwd(), bridge), 'utf8')).toContain(name);
    }
  });
});
