/**
 * The twin's functions as bundles (docs/local-twin.md#api-threads): each function's entry, with the thread harness
 * (function-worker.ts) in front of it, built by esbuild into plain ES modules, as the cloud's functions are bundled
 * (infra/constructs/imaging-function.ts). A thread then starts by loading a few files instead of resolving and
 * transpiling hundreds of TypeScript modules, which on a busy machine is most of a cold start.
 * One build covers every bundled entry (shared code split into common chunks); it is kept under node_modules/.cache
 * and used again while none of its input files has changed (size and modification time of each, from esbuild's
 * metafile), so a twin starts from a warm cache in milliseconds and rebuilds in a few seconds after an edit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/iws-functions');
const HARNESS = join(ROOT, 'infra/local/function-worker.ts');
/** Read by function-worker.ts: a bundle serves its own entry. */
const BUNDLED_FLAG = "globalThis[Symbol.for('imaging.local.bundledFunction')] = true;";

/** A replaced build is removed after this long (a twin started from it may still start threads). */
const STALE_BUILD_MS = 24 * 60 * 60_000;

type BuildRecord = { dir: string; inputs: Record<string, [number, number]> };

/** The output name of an entry's bundle (entries are repository paths such as functions/datasets/handler.ts). */
const outputName = (entry: string) => entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-');

function stillValid(record: BuildRecord): boolean {
  if (!existsSync(record.dir)) return false;
  for (const [path, [size, mtimeMs]] of Object.entries(record.inputs)) {
    try {
      const stat = statSync(path);
      if (stat.size !== size || stat.mtimeMs !== mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}

async function buildAll(entries: readonly string[], dir: string): Promise<BuildRecord> {
  const virtual: Plugin = {
    name: 'function-entries',
    setup(plugin) {
      plugin.onResolve({ filter: /^function:/ }, (args) => ({
        path: args.path.slice('function:'.length),
        namespace: 'function',
      }));
      plugin.onLoad({ filter: /.*/, namespace: 'function' }, (args) => ({
        contents: `import { serveFunction } from ${JSON.stringify(HARNESS)};\nvoid serveFunction(() => import(${JSON.stringify(join(ROOT, args.path))}));\n`,
        resolveDir: ROOT,
        loader: 'ts',
      }));
    },
  };
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(entries.map((entry) => [outputName(entry), `function:${entry}`])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    // ESM bundles have no `require`; CommonJS dependencies bundled inside still call it.
    banner: {
      js: `import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url); ${BUNDLED_FLAG}`,
    },
    plugins: [virtual],
    metafile: true,
    logLevel: 'error',
  });
  const inputs: BuildRecord['inputs'] = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input.startsWith('function:')) continue;
    const path = join(ROOT, input);
    const stat = statSync(path);
    inputs[path] = [stat.size, stat.mtimeMs];
  }
  return { dir, inputs };
}

const builds = new Map<string, Promise<Map<string, string>>>();

/**
 * The bundle of each entry (a file URL to import in a thread), building them when the cache has none that is current.
 * Concurrent twins may build at once: each writes its own folder and the newest build.json wins.
 */
export function functionBundles(entries: readonly string[]): Promise<Map<string, string>> {
  const sorted = [...new Set(entries)].sort();
  const key = createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 16);
  let pending = builds.get(key);
  if (!pending) {
    pending = (async () => {
      const home = join(CACHE, key);
      const recordPath = join(home, 'build.json');
      let record: BuildRecord | undefined;
      try {
        record = JSON.parse(readFileSync(recordPath, 'utf8')) as BuildRecord;
      } catch {
        record = undefined;
      }
      if (!record || !stillValid(record)) {
        mkdirSync(home, { recursive: true });
        record = await buildAll(sorted, join(home, randomUUID()));
        const temporary = `${recordPath}.${randomUUID()}`;
        writeFileSync(temporary, JSON.stringify(record));
        renameSync(temporary, recordPath);
        // Older builds of the same entries go once no twin can still be starting threads from them.
        for (const name of readdirSync(home)) {
          const path = join(home, name);
          if (name.startsWith('build.json') || path === record.dir) continue;
          if (Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS) rmSync(path, { recursive: true, force: true });
        }
      }
      const dir = record.dir;
      return new Map(sorted.map((entry) => [entry, pathToFileURL(join(dir, `${outputName(entry)}.mjs`)).href]));
    })();
    builds.set(key, pending);
    // A failed build is tried again by the next caller.
    pending.catch(() => builds.delete(key));
  }
  return pending;
}
