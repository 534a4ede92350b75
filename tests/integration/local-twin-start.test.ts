import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayErrorBody, RETRY_AFTER_SECONDS } from '#shared/definitions/api/gateway-errors.ts';
import { REPO_ROOT, tempDataDir, TEST_DEMO_PASSWORD } from '#tests/helpers/local-stack.ts';

/** The longest a request may wait for its answer, whatever the twin is doing. */
const ANSWER_WITHIN_MS = 5_000;
const PATHS = ['/api/health', '/config.json', '/api/datasets', '/_aws/sfn', '/'];

type Outcome = {
  path: string;
  ms: number;
  status?: number;
  refused?: true;
  closed?: string;
  hung?: true;
  body?: string;
  retryAfter?: string | null;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function request(port: number, path: string): Promise<Outcome> {
  const started = Date.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    const body = await response.text();
    return {
      path,
      ms: Date.now() - started,
      status: response.status,
      body,
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    const ms = Date.now() - started;
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') return { path, ms, refused: true };
    // A connection closed by a process that is going away is an answer too; only waiting counts as hanging.
    if (error instanceof Error && error.name !== 'TimeoutError') return { path, ms, closed: cause?.code ?? error.name };
    return { path, ms, hung: true };
  }
}

/** Requests in a loop, every path in turn, until `until` says stop; every outcome is kept. */
async function hammer(port: number, until: (outcomes: Outcome[]) => boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const deadline = Date.now() + 90_000;
  for (let i = 0; !until(outcomes) && Date.now() < deadline; i++) {
    const outcome = await request(port, PATHS[i % PATHS.length]!);
    outcomes.push(outcome);
    if (outcome.refused) await new Promise((r) => setTimeout(r, 5));
  }
  return outcomes;
}

function startCli(
  port: number,
  dataDir: string,
): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', 'infra/local/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_NO_WARNINGS: '1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_PASSWORD: TEST_DEMO_PASSWORD,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('local twin ready')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

function unanswered(outcomes: Outcome[]): Outcome[] {
  return outcomes.filter((o) => o.hung || o.ms > ANSWER_WITHIN_MS);
}

describe('local twin start and stop', () => {
  const dataDir = tempDataDir();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request from the first millisecond of a start, a stop and a restart: 503 with Retry-After until ready', async () => {
    const port = await freePort();
    const all: Outcome[] = [];
    for (const phase of ['first start', 'restart']) {
      // Prepare: the loop begins before the process does, and runs until the API answers healthy.
      const loop = hammer(port, (o) => o.some((x) => x.path === '/api/health' && x.status === 200));
      const run = startCli(port, dataDir);
      children.push(run.child);
      await run.ready;
      const startOutcomes = await loop;
      expect(
        startOutcomes.some((o) => o.path === '/api/health' && o.status === 200),
        phase,
      ).toBe(true);
      all.push(...startOutcomes);

      // Assess the start: nothing left waiting; the starting window answers 503 + Retry-After with the catalogue body.
      expect(unanswered(startOutcomes), phase).toEqual([]);
      const starting = startOutcomes.filter((o) => o.status === 503 && o.path !== '/api/health');
      for (const outcome of starting) {
        expect(outcome.retryAfter, phase).toBe(String(RETRY_AFTER_SECONDS));
        expect(outcome.body, phase).toBe(gatewayErrorBody('unavailable'));
      }

      // Act: stop it while requests keep coming.
      let stopped = false;
      const stopLoop = hammer(port, () => stopped);
      run.child.kill('SIGTERM');
      expect(await run.exited, phase).toBe(0);
      stopped = true;
      const stopOutcomes = await stopLoop;
      expect(unanswered(stopOutcomes), phase).toEqual([]);
      all.push(...stopOutcomes);
    }
    // Somewhere in the two starts the starting window was seen and answered.
    expect(all.some((o) => o.status === 503 && o.body === gatewayErrorBody('unavailable'))).toBe(true);
  }, 120_000);
});
