/**
 * Integration-test helpers over the local twin: start it on a throw-away data folder (or a given one), sign in as a
 * demo user through its Cognito-compatible endpoint, call the API as that user. Reused by the access, e2e and
 * twin tests. One twin per test file at a time (the twin sets process.env).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchRuntimeConfig, signInWithPassword } from '../../cli/commands/upload.ts';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../infra/local/stack.ts';

/** The password the test twins give every demo account. */
export const TEST_DEMO_PASSWORD = 'Test-Demo-Pass-42!';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** /work/shared/data, resolved from the repository root as CI lays it out. */
export const SHARED_DATA = resolve(REPO_ROOT, '../shared/data');

export type TestStack = LocalStack & {
  /** Stops the twin and deletes its data folder (unless it was given). */
  dispose(): Promise<void>;
};

export function tempDataDir(prefix = 'iws-twin-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestStack(options: Partial<LocalStackOptions> = {}): Promise<TestStack> {
  const owned = !options.dataDir;
  const dataDir = options.dataDir ?? tempDataDir();
  const stack = await startLocalStack({
    port: 0, demoPassword: TEST_DEMO_PASSWORD, quiet: true, buildSite: false, ...options, dataDir,
  });
  return {
    ...stack,
    async dispose() {
      await stack.stop();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in with USER_PASSWORD_AUTH at the twin's userPoolEndpoint (from /config.json); returns the ID token. */
export async function signIn(url: string, email: string, password: string = TEST_DEMO_PASSWORD): Promise<string> {
  const config = await fetchRuntimeConfig(url);
  return (await signInWithPassword(config, email, password)).idToken;
}

/** fetch() of an API path as the holder of `token` (JSON body when given). */
export async function apiFetch(url: string, token: string | undefined, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
