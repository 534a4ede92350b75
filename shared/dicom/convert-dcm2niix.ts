/**
 * dcm2niix, the field's reference DICOM → NIfTI converter, as its WebAssembly build (@niivue/dcm2niix, with JPEG,
 * JPEG-LS and JPEG 2000 decoders). The package documents a browser Worker API only; its Emscripten module
 * (`dist/dcm2niix.jpeg.js`) also runs in Node, where we drive `callMain` over the module's in-memory file system.
 *
 * The module is instantiated ONCE per process (about 30 ms plus the 0.9 MB WASM compile) and reused for every
 * run: each run writes its inputs under a fresh folder, calls main, reads the outputs and removes both folders,
 * so nothing of one series is left for the next. A run is synchronous from the first write to the last read,
 * so concurrent callers in one process cannot interleave on the shared file system.
 */

type EmscriptenFs = {
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  readFile(path: string): Uint8Array;
  readdir(path: string): string[];
  unlink(path: string): void;
  rmdir(path: string): void;
  stat(path: string): { mode: number };
  isDir(mode: number): boolean;
};

type Dcm2niixModule = { FS: EmscriptenFs; callMain(args: string[]): number };

type ModuleFactory = (options: {
  print: (line: string) => void;
  printErr: (line: string) => void;
}) => Promise<Dcm2niixModule>;

export type Dcm2niixRun = {
  exitCode: number;
  /** Output files by name (flat: dcm2niix writes into one folder). */
  outputs: Map<string, Uint8Array>;
  /** dcm2niix's console lines. They can name the output files, so they carry series descriptions: never log them as-is. */
  log: string[];
};

let modulePromise: Promise<Dcm2niixModule> | undefined;
let consoleSink: string[] = [];
let runCounter = 0;

/** The WASM build's own version line, e.g. "v1.0.20241231" (the native Debian build can be older). */
export async function getDcm2niixVersion(): Promise<string> {
  const run = await runDcm2niix([], ['--version']);
  const match = run.log.join('\n').match(/version (v[\w.]+)/);
  return match?.[1] ?? 'unknown';
}

/**
 * Loads (once) the dcm2niix WASM module. Exposed so a cold start can be paid ahead of the first conversion.
 * `moduleUrl` points at `dcm2niix.jpeg.js` (with its .wasm beside it) where the package is not resolvable, e.g. in a
 * bundled Lambda that ships the two files as assets; only the first call's value counts.
 */
export function loadDcm2niix(options: { moduleUrl?: string } = {}): Promise<Dcm2niixModule> {
  modulePromise ??= (async () => {
    // The package's "exports" only name the Worker wrapper, so locate the Emscripten module next to it.
    const moduleUrl = options.moduleUrl ?? new URL('./dcm2niix.jpeg.js', import.meta.resolve('@niivue/dcm2niix')).href;
    const imported = (await import(/* @vite-ignore */ moduleUrl)) as { default: ModuleFactory };
    return imported.default({ print: (line) => consoleSink.push(line), printErr: (line) => consoleSink.push(line) });
  })();
  modulePromise.catch(() => {
    modulePromise = undefined;
  });
  return modulePromise;
}

/**
 * Runs dcm2niix once over `files` with `args` (everything but `-o <out>` and the input folder, which are added here).
 * File names are flattened (`a/b.dcm` → `a_b.dcm`); dcm2niix reads the headers, not the names.
 */
export async function runDcm2niix(files: { name: string; bytes: Uint8Array }[], args: string[]): Promise<Dcm2niixRun> {
  const mod = await loadDcm2niix();
  const { FS } = mod;
  runCounter += 1;
  const inDir = `/run-${runCounter}-in`;
  const outDir = `/run-${runCounter}-out`;
  consoleSink = [];
  FS.mkdir(inDir);
  FS.mkdir(outDir);
  try {
    const used = new Set<string>();
    files.forEach((file, index) => {
      let name = file.name.replace(/[\\/]+/g, '_').replace(/^\.+/, '') || `file-${index}`;
      if (used.has(name)) name = `${index}-${name}`;
      used.add(name);
      FS.writeFile(`${inDir}/${name}`, file.bytes);
    });
    const exitCode = files.length > 0 || args.includes('--version') ? mod.callMain([...args, '-o', outDir, inDir]) : 0;
    const outputs = new Map<string, Uint8Array>();
    for (const name of FS.readdir(outDir)) {
      if (name === '.' || name === '..') continue;
      // FS.readFile returns a view on a fresh copy, independent of the WASM heap.
      outputs.set(name, FS.readFile(`${outDir}/${name}`));
    }
    return { exitCode, outputs, log: consoleSink };
  } finally {
    removeTree(FS, inDir);
    removeTree(FS, outDir);
    consoleSink = [];
  }
}

function removeTree(FS: EmscriptenFs, path: string): void {
  for (const name of FS.readdir(path)) {
    if (name === '.' || name === '..') continue;
    const child = `${path}/${name}`;
    if (FS.isDir(FS.stat(child).mode)) removeTree(FS, child);
    else FS.unlink(child);
  }
  FS.rmdir(path);
}
