/**
 * Integration-test helpers over the local twin: start it on a throw-away data folder (or a given one), sign in as a
 * demo user through its Cognito-compatible endpoint, call the API as that user. Reused by the access, e2e and
 * twin tests. One twin per test file at a time (the twin sets process.env).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fetchRuntimeConfig, signInWithPassword } from '#cli/commands/upload.ts';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '#infra/local/stack.ts';
import { REPO_ROOT } from '#tests/helpers/shared-data.ts';

/** The password the test twins give every demo account. */
export const TEST_DEMO_PASSWORD = 'Test-Demo-Pass-42!';

export { REPO_ROOT };

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
    port: 0,
    demoPassword: TEST_DEMO_PASSWORD,
    quiet: true,
    buildSite: false,
    warmFunctions: false,
    ...options,
    dataDir,
  });
  return {
    ...stack,
    async dispose() {
      await stack.stop();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A file's twin on its own data folder, which a test may stop and start again there. */
export type TwinOnTempDir = {
  readonly stack: TestStack;
  readonly dataDir: string;
  /** The port of the first start; a restart takes it again. */
  readonly port: number;
  /** Starts a twin again on the same data folder and port (after a test stopped the running one). */
  restart(): Promise<TestStack>;
};

/**
 * Registers the file's beforeAll/afterAll: a throw-away data folder and a twin on it before the tests; after them the
 * twin then running is stopped and the folder removed. The handles are read inside tests, once beforeAll has run.
 */
export function useTwinOnTempDir(): TwinOnTempDir {
  let stack: TestStack | undefined;
  let dataDir: string | undefined;
  let port: number | undefined;
  beforeAll(async () => {
    dataDir = tempDataDir();
    stack = await startTestStack({ dataDir });
    port = Number(new URL(stack.url).port);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The twin is not started: read it inside a test, after beforeAll');
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get dataDir() {
      return started(dataDir);
    },
    get port() {
      return started(port);
    },
    async restart() {
      stack = await startTestStack({ dataDir: started(dataDir), port: started(port) });
      return stack;
    },
  };
}

/** Signs in with USER_PASSWORD_AUTH at the twin's userPoolEndpoint (from /config.json); returns the ID token. */
export async function signIn(url: string, email: string, password: string = TEST_DEMO_PASSWORD): Promise<string> {
  const config = await fetchRuntimeConfig(url);
  return (await signInWithPassword(config, email, password)).idToken;
}

/** fetch() of an API path as the holder of `token` (JSON body when given). */
export async function apiFetch(
  url: string,
  token: string | undefined,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
