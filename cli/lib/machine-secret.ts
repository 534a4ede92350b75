import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/** Where this user's `iws` secret is kept: `$XDG_CONFIG_HOME/iws/secret`, else `~/.config/iws/secret` (XDG Base Directory). */
export function machineSecretPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const config = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  return join(config, 'iws', 'secret');
}

function readSecret(path: string): string | undefined {
  try {
    const secret = readFileSync(path, 'utf8').trim();
    if (!secret) throw new Error(`iws: the secret file ${path} is empty; remove it or set IWS_SECRET`);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * This machine's secret for keyed pseudonyms and date shifts: read from its file, or made once (32 random bytes) when
 * there is none. The file is created whole and at once, mode 0600 in a folder of mode 0700: the bytes go to a private
 * temporary file, which is then hard-linked to the name; a link never replaces an existing name, so two runs starting
 * together agree on whichever secret was linked first.
 */
export function machineSecret(path = machineSecretPath()): { secret: string; path: string; created: boolean } {
  const existing = readSecret(path);
  if (existing) return { secret: existing, path, created: false };
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  const temporary = join(folder, `.secret-${process.pid}-${randomBytes(6).toString('hex')}`);
  writeFileSync(temporary, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  // The mode given at creation is narrowed by the umask, never widened; chmod makes it exactly 0600.
  chmodSync(temporary, 0o600);
  try {
    linkSync(temporary, path);
    return { secret, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another run made it first: use theirs.
    return { secret: readSecret(path)!, path, created: false };
  } finally {
    rmSync(temporary, { force: true });
  }
}
