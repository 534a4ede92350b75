#!/usr/bin/env node
// `iws` entry: runs the TypeScript command (cli/main.ts) through tsx, so the engine in shared/ is used as it is.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsxLoader = require.resolve('tsx');
const result = spawnSync(
  process.execPath,
  ['--no-warnings', '--import', tsxLoader, join(here, 'main.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
