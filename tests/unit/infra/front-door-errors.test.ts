import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from '#infra/local/api.ts';
import { gatewayErrorBody } from '#shared/definitions/api/gateway-errors.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';

/**
 * The twin's front door answers a request it cannot read as the cloud's gateway does (a DEFAULT_4XX response with the
 * catalogue's body, shared/definitions/api/gateway-errors.ts), never with Node's bare status line.
 */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((_req, res) => res.end('routed'));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Sends the raw request and reads everything the server answers until it closes. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head!.split(' ')[1]), headers: head!.toLowerCase(), body });
    });
  });
}

describe('requests the front door cannot read', () => {
  it('answers a query string past the header limit with 431 and the catalogue body', async () => {
    // Prepare: a URL longer than Node's 16 KiB limit on the request line and headers.
    const request = `GET /api/datasets?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    // Act
    const answer = await raw(request);
    // Assess
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.body).toBe(gatewayErrorBody('headersTooLarge'));
    expect(JSON.parse(answer.body).error.message).toBe(ERROR_CATALOGUE.REQUEST_HEADERS_TOO_LARGE.message);
  });

  it('answers oversized headers the same way', async () => {
    // Prepare
    const request = `GET /api/me HTTP/1.1\r\nHost: localhost\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`;
    // Act
    const answer = await raw(request);
    // Assess
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body).error.code).toBe('REQUEST_HEADERS_TOO_LARGE');
  });

  it('answers a request that is not HTTP with 400 and the catalogue body', async () => {
    // Act
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toBe(gatewayErrorBody('rejected'));
  });
});
