import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * The local twin's data folder: everything the twin persists lives below it (table, objects, identities,
 * executions, generated secrets), so a restart finds all of it again. One twin per folder at a time.
 */
export class LocalStackError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'LocalStackError';
  }
}

/** Exit codes of `npm start`, documented in infra/local/README.md. */
export const EXIT_CODES = { DATA_DIR_IN_USE: 3, PORT_IN_USE: 4, START_FAILED: 1 } as const;

export function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // After a crash the pid may have gone to an unrelated program: only a node process can be a twin.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc (not Linux): trust the signal check
  }
}

/** Data folders locked by this process, so a second stack in the same process is refused too. */
const lockedHere = new Set<string>();

/**
 * Takes the folder's lock file (pid inside). A lock left by a process that no longer runs (killed, crashed)
 * is taken over; a live one is a clear error.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = join(dataDir, 'twin.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      lockedHere.add(lockPath);
      return () => {
        lockedHere.delete(lockPath);
        try {
          unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
      const heldHere = pid === process.pid && lockedHere.has(lockPath);
      if (heldHere || (Number.isInteger(pid) && pid !== process.pid && processIsAlive(pid))) {
        throw new LocalStackError(
          `Another local twin (pid ${pid}) is already running on the data folder ${dataDir}; stop it first or set DATA_DIR to another folder.`,
          EXIT_CODES.DATA_DIR_IN_USE,
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new LocalStackError(`Could not lock the data folder ${dataDir}.`, EXIT_CODES.START_FAILED);
}

/** A value generated once and kept under the data folder (mode 600), e.g. the demo password or the pseudonym key. */
export function persistedSecret(
  dataDir: string,
  name: string,
  generate: () => string,
): { value: string; created: boolean } {
  const path = join(ensureDir(dataDir), name);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, created: true };
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A demo password that satisfies Cognito's default policy (upper, lower, digit, symbol, length >= 8). */
export function generateDemoPassword(): string {
  return `Demo-${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}-7a`;
}

export function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function writeJson(path: string, value: unknown): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2));
  // rename is atomic on one file system: a crash leaves either the old or the new file.
  renameSync(tmp, path);
}
