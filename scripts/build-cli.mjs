#!/usr/bin/env node
// Builds the `iws` command into plain JavaScript (cli/dist/iws.mjs, the package's bin), so it starts without a
// TypeScript loader. Each command is its own chunk, loaded only when that command runs: `iws --help` loads no engine
// code. npm packages stay imports resolved from node_modules (some load WASM files beside their own modules).
// Usage: node scripts/build-cli.mjs [outdir]   (default cli/dist)
import { chmodSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = resolve(process.argv[2] ?? join(root, 'cli/dist'));

/** Bare package names (not ./, /, or the repository's own #aliases) stay external. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./#]/ }, (args) => ({ path: args.path, external: true }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { iws: 'cli/main.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [npmPackagesExternal],
  logLevel: 'warning',
});
chmodSync(join(outdir, 'iws.mjs'), 0o755);
