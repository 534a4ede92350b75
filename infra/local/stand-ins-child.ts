import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDynamo } from './dynamo.ts';
import { startS3, type S3Options } from './s3.ts';

/** What the twin sends the stand-ins' process when it starts it (infra/local/stand-ins.ts); DynamoDB's `dataDir` empty: in memory. */
export type StandInsStart =
  { service: 'dynamodb'; dataDir: string } | { service: 's3'; dataDir: string; buckets: string[]; s3: S3Options };

/**
 * A stand-in's process: dynalite or s3rver, each with an event loop (and a thread's share of the machine) of its own,
 * behind an internal port. The twin's main process proxies /_aws/dynamodb and /_aws/s3 here
 * (docs/local-twin.md#stand-ins), so their work (dynalite's queries in JavaScript, s3rver's checksums and files)
 * neither holds up the router nor waits behind it.
 */
async function main(start: StandInsStart): Promise<void> {
  const service =
    start.service === 'dynamodb'
      ? await startDynamo(start.dataDir)
      : await startS3(start.dataDir, start.buckets, start.s3);
  const server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const prefix = new RegExp(`^/_aws/${start.service}(?=/|\\?|$)`).exec(rawUrl);
    if (!prefix) {
      req.resume();
      res.writeHead(404);
      res.end();
      return;
    }
    const rest = rawUrl.slice(prefix[0].length) || '/';
    const path = rest.startsWith('/') ? rest : `/${rest}`;
    service.handle(req, res, path);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
  };
  process.on('message', (message: { type: string }) => {
    if (message.type === 'close') void close().then(() => process.exit(0));
  });
  // The twin went away (killed): LevelDB's lock must not outlive it.
  process.on('disconnect', () => void close().finally(() => process.exit(0)));
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
}

process.once('message', (message: { type: string; start?: StandInsStart }) => {
  if (message.type !== 'start' || !message.start) return;
  main(message.start).catch((error: unknown) => {
    process.stderr.write(`stand-ins failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
});
