import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { StandInsStart } from './stand-ins-child.ts';

const require = createRequire(import.meta.url);
const CHILD = fileURLToPath(new URL('./stand-ins-child.ts', import.meta.url));

export type StandInsService = {
  /** Passes a request for the stand-in (its URL as the client sent it, /_aws/<service>/...) to its process. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The stand-in's own address, for a client in this process that needs no routing (benches). */
  endpoint: string;
  close(): Promise<void>;
};

/**
 * Starts dynalite or s3rver in a process of its own (infra/local/stand-ins-child.ts) and answers its requests by
 * streaming them there and back, URL and headers unchanged (the object store checks signatures over both). The twin's
 * main process keeps only the routing, so a slow query or a large object does not stall the API (docs/local-twin.md#stand-ins).
 */
export async function startStandIns(start: StandInsStart): Promise<StandInsService> {
  const execArgv = ['--import', pathToFileURL(require.resolve('tsx')).href];
  if (process.execArgv.includes('--openssl-legacy-provider')) execArgv.unshift('--openssl-legacy-provider');
  const child: ChildProcess = fork(CHILD, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { type: string; port?: number }) =>
      message.type === 'ready' && message.port ? resolve(message.port) : reject(new Error('stand-ins did not start')),
    );
    child.once('exit', (code) =>
      reject(new Error(`the ${start.service} stand-in's process exited during start (${code})`)),
    );
    child.send({ type: 'start', start });
  });
  let stopped = false;
  child.once('exit', (code, signal) => {
    if (!stopped) process.stderr.write(`the ${start.service} stand-in's process stopped (${signal ?? code})\n`);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return {
    endpoint: `http://127.0.0.1:${port}/_aws/${start.service}`,
    handle(req, res) {
      const upstream = request(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      // A client that goes away mid-request takes its upstream request with it.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    },
    async close() {
      stopped = true;
      agent.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
