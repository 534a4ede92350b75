#!/usr/bin/env node
// `iws` from the TypeScript source (cli/main.ts) through tsx, for the tests and development: it always runs the code
// as it is now. The package's bin is the built cli/dist/iws.mjs (scripts/build-cli.mjs), which starts without tsx.
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
