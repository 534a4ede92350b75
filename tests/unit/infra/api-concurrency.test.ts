import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiConcurrencyCap } from '#infra/local/api-concurrency.ts';

describe("the twin's API concurrency cap (an API Lambda's reserved concurrency)", () => {
  let server: Server;
  let base: string;
  const release: (() => void)[] = [];

  beforeAll(async () => {
    const cap = createApiConcurrencyCap('http://127.0.0.1:3000', 2, 300);
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://local');
      void cap(req, res, url, async () => {
        // Each request is held until the test lets it go.
        await new Promise<void>((resolve) => release.push(resolve));
        res.writeHead(200);
        res.end('done');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a request over the limit of a domain with TOO_MANY_REQUESTS once its wait is over; another domain is not affected', async () => {
    const held = [fetch(`${base}/api/datasets`), fetch(`${base}/api/datasets/d1`)];
    await expect.poll(() => release.length).toBe(2);
    const refused = await fetch(`${base}/api/datasets`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests at once. Please wait a moment and try again.' },
    });
    const otherDomain = fetch(`${base}/api/me`);
    await expect.poll(() => release.length).toBe(3);
    for (const go of release.splice(0)) go();
    expect((await Promise.all([...held, otherDomain])).map((r) => r.status)).toEqual([200, 200, 200]);
    // Slots come back when requests finish.
    const again = fetch(`${base}/api/datasets`);
    await expect.poll(() => release.length).toBe(1);
    release.splice(0).forEach((go) => go());
    expect((await again).status).toBe(200);
  });

  it('lets a request over the limit wait for a slot, in arrival order, instead of refusing it', async () => {
    const held = [fetch(`${base}/api/datasets`), fetch(`${base}/api/datasets/d1`)];
    await expect.poll(() => release.length).toBe(2);
    const queued = fetch(`${base}/api/datasets/d2`);
    // It waits while both slots are held...
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(release.length).toBe(2);
    // ...and runs as soon as one is freed, within its wait.
    release.shift()?.();
    await expect.poll(() => release.length).toBe(2);
    for (const go of release.splice(0)) go();
    expect((await Promise.all([...held, queued])).map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
