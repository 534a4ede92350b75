import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  checkSiteUrl,
  isLoopback,
  neutralUploadPath,
  run,
  signInEndpoint,
  uploadSaltOf,
} from '#cli/commands/upload.ts';
import { uploadFileKey } from '#shared/client/file-key.ts';
import { archiveLayout, archivePartBytes, unpackArchive } from '#shared/domain/uploads/study-archive.ts';
import { readHiddenLine, readPassword } from '#cli/lib/password.ts';

type Seen = { method: string; path: string; body: string };
type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A stand-in site on 127.0.0.1 that records every request it gets. */
async function fakeSite(handler: Handler): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

// Folder and file names that name a patient, as they often do.
const work = mkdtempSync(join(tmpdir(), 'iws-upload-'));
const FOLDER = join(work, 'DOE^JANE 1970-01-01');
mkdirSync(join(FOLDER, 'SMITH_JOHN'), { recursive: true });
writeFileSync(join(FOLDER, 'DOE_JANE_IM1.dcm'), 'one');
writeFileSync(join(FOLDER, 'SMITH_JOHN', 'IM2.dcm'), 'two');
const PASSWORD = 'Env-Secret-42!';

const servers: Server[] = [];
let stderr = '';
beforeAll(() => {
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr = '';
  vi.unstubAllEnvs();
});
afterAll(() => {
  vi.restoreAllMocks();
  for (const server of servers) server.close();
  rmSync(work, { recursive: true, force: true });
});

async function site(handler: Handler) {
  const started = await fakeSite(handler);
  servers.push(started.server);
  return started;
}

describe('iws upload: the password', () => {
  it('refuses --password on the command line, before contacting anything', async () => {
    // Prepare
    const twin = await site((_req, _body, res) => json(res, 500, {}));
    // Act
    const code = await run([FOLDER, '--api', twin.url, '--email', 'a@b.org', '--mrn', 'M1', '--password', 'p']);
    // Assert
    expect(code).toBe(2);
    expect(stderr).toContain('--password is refused');
    expect(stderr).toContain('IWS_PASSWORD');
    expect(twin.seen).toEqual([]);
  });

  it('reads it from IWS_PASSWORD, else from a terminal, else not at all', async () => {
    const stderrSink = { write: () => true };
    expect(await readPassword('a@b.org', { env: { IWS_PASSWORD: 'x1' }, stdin: {}, stderr: stderrSink })).toBe('x1');
    expect(await readPassword('a@b.org', { env: {}, stdin: { isTTY: false }, stderr: stderrSink })).toBeUndefined();
  });

  it('prompts on a terminal in raw mode without echoing what is typed', async () => {
    // Prepare
    const input = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, setRawMode: vi.fn() });
    let shown = '';
    const output = { write: (text: string) => (shown += text) };
    // Act
    const line = readHiddenLine('Password for a@b.org: ', input, output);
    input.write('sx\u007fecr');
    input.write('et\r');
    // Assert
    expect(await line).toBe('secret');
    expect(shown).toBe('Password for a@b.org: \n');
    expect(input.setRawMode.mock.calls).toEqual([[true], [false]]);
  });
});

describe('iws upload: where the password may go', () => {
  it('refuses plain http:// except to this machine', () => {
    expect(() => checkSiteUrl('http://imaging.example.org')).toThrow(/--api must be https:\/\//);
    expect(() => checkSiteUrl('http://10.0.0.5:3000')).toThrow(/--api must be https:\/\//);
    expect(() => checkSiteUrl('ftp://127.0.0.1')).toThrow(/--api must be https:\/\//);
    for (const ok of [
      'https://imaging.example.org',
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:80',
    ])
      expect(checkSiteUrl(ok).href).toContain(new URL(ok).host);
    expect(isLoopback(new URL('http://127.1.2.3'))).toBe(true);
    expect(isLoopback(new URL('http://127.0.0.1.example.org'))).toBe(false);
  });

  it('refuses an http --api to another machine without sending anything', async () => {
    // Prepare
    vi.stubEnv('IWS_PASSWORD', PASSWORD);
    // Act
    const code = await run([FOLDER, '--api', 'http://imaging.example.org', '--email', 'a@b.org', '--mrn', 'M1']);
    // Assert
    expect(code).toBe(2);
    expect(stderr).toContain('--api must be https://');
  });

  it('sends sign-in only to https Cognito, or to the loopback site itself', () => {
    const cloud = new URL('https://imaging.example.org');
    const local = new URL('http://127.0.0.1:3000');
    expect(signInEndpoint({ region: 'eu-west-1' }, cloud)).toBe('https://cognito-idp.eu-west-1.amazonaws.com/');
    expect(signInEndpoint({ region: 'us-gov-west-1' }, cloud)).toBe('https://cognito-idp.us-gov-west-1.amazonaws.com/');
    expect(signInEndpoint({ userPoolEndpoint: '/_aws/cognito' }, local)).toBe('http://127.0.0.1:3000/_aws/cognito');
    const refused = [
      [{ userPoolEndpoint: 'https://collector.example.net/' }, cloud],
      [{ userPoolEndpoint: 'http://cognito-idp.eu-west-1.amazonaws.com/' }, cloud],
      [{ userPoolEndpoint: 'https://cognito-idp.eu-west-1.amazonaws.com.example.net/' }, cloud],
      [{ region: 'collector.example.net/#' }, cloud],
      [{ userPoolEndpoint: '/_aws/cognito' }, cloud],
      [{ userPoolEndpoint: 'http://127.0.0.1:4000/' }, local],
      [{ userPoolEndpoint: 'https://collector.example.net/' }, local],
    ] as const;
    for (const [config, siteUrl] of refused)
      expect(() => signInEndpoint(config, siteUrl), JSON.stringify(config)).toThrow(/the password goes only to/);
  });

  it('never sends the password where a loopback /config.json points elsewhere', async () => {
    // Prepare: a second server that would collect the password
    vi.stubEnv('IWS_PASSWORD', PASSWORD);
    const collector = await site((_req, _body, res) => json(res, 200, { AuthenticationResult: { IdToken: 't' } }));
    const twin = await site((req, _body, res) =>
      json(res, 200, {
        region: 'eu-west-1',
        userPoolClientId: 'c',
        apiBaseUrl: '/api',
        userPoolEndpoint: collector.url,
      }),
    );
    // Act
    const outcome = run([FOLDER, '--api', twin.url, '--email', 'a@b.org', '--mrn', 'M1']);
    // Assert
    await expect(outcome).rejects.toThrow(/sends sign-in to http:\/\/127\.0\.0\.1:\d+: the password goes only to/);
    expect(twin.seen.map((r) => r.path)).toEqual(['/config.json']);
    expect(collector.seen).toEqual([]);
  });
});

describe('iws upload: nothing from folder or file names leaves the machine', () => {
  it('creates the dataset and the upload session without any path or name in them', async () => {
    // Prepare
    vi.stubEnv('IWS_PASSWORD', PASSWORD);
    const twin = await site((req, _body, res) => {
      if (req.url === '/config.json')
        return json(res, 200, { region: 'r', userPoolClientId: 'c', apiBaseUrl: '/api', userPoolEndpoint: '/idp' });
      if (req.url === '/idp') return json(res, 200, { AuthenticationResult: { IdToken: 'id-token', ExpiresIn: 3600 } });
      if (req.url === '/api/datasets') return json(res, 201, { id: 'ds1', status: 'CREATED' });
      return json(res, 400, { message: 'stop here' });
    });
    // Act
    const outcome = run([FOLDER, '--api', twin.url, '--email', 'a@b.org', '--mrn', 'M1', '--quiet']);
    // Assert
    await expect(outcome).rejects.toThrow();
    const signIn = JSON.parse(twin.seen.find((r) => r.path === '/idp')!.body);
    expect(signIn.AuthParameters).toEqual({ USERNAME: 'a@b.org', PASSWORD });
    const created = JSON.parse(twin.seen.find((r) => r.path === '/api/datasets')!.body);
    expect(created.studyDescription).toBe('Uploaded with iws');
    expect(created.mrn).toBe('M1');
    const session = JSON.parse(twin.seen.find((r) => r.path === '/api/datasets/ds1/upload/session')!.body);
    const salt = uploadSaltOf('ds1');
    expect(session.files.map((f: { fileKey: string }) => f.fileKey)).toEqual([
      await uploadFileKey(salt, neutralUploadPath(0), session.files[0].sizeBytes),
      await uploadFileKey(salt, neutralUploadPath(1), session.files[1].sizeBytes),
    ]);
    const sent = twin.seen.map((r) => `${r.path} ${r.body}`).join('\n');
    for (const name of ['DOE', 'JANE', 'SMITH', 'JOHN', 'IM1', 'IM2', '1970', '.dcm']) expect(sent).not.toContain(name);
  });

  it('sends the study as one archive whose members are named by index, in one part with one batch of URLs', async () => {
    // Prepare
    vi.stubEnv('IWS_PASSWORD', PASSWORD);
    let base = '';
    const twin = await site((req, body, res) => {
      if (req.url === '/config.json')
        return json(res, 200, { region: 'r', userPoolClientId: 'c', apiBaseUrl: '/api', userPoolEndpoint: '/idp' });
      if (req.url === '/idp') return json(res, 200, { AuthenticationResult: { IdToken: 'id-token', ExpiresIn: 3600 } });
      if (req.url === '/api/datasets') return json(res, 201, { id: 'ds1', status: 'CREATED' });
      if (req.url === '/api/datasets/ds1/upload/session') {
        const files = (JSON.parse(body) as { files: { fileKey: string; sizeBytes: number }[] }).files;
        const archiveBytes = archiveLayout(files.map((f) => f.sizeBytes)).totalBytes;
        return json(res, 201, {
          sessionId: 's1',
          datasetId: 'ds1',
          status: 'OPEN',
          archiveBytes,
          partBytes: archivePartBytes(archiveBytes),
          partCount: 1,
          completedParts: [],
          files: files.map((f, fileIndex) => ({ fileIndex, fileKey: f.fileKey, sizeBytes: f.sizeBytes })),
          createdAt: '2026-01-01T00:00:00.000Z',
        });
      }
      if (req.url === '/api/uploads/s1/parts')
        return json(res, 200, { urls: [{ partNumber: 1, url: `${base}/part/1` }] });
      if (req.url === '/part/1') return res.writeHead(200, { etag: '"e1"' }).end();
      if (req.url === '/api/uploads/s1/complete') return json(res, 200, { id: 'ds1', status: 'UPLOADING' });
      if (req.url === '/api/datasets/ds1') return json(res, 200, { id: 'ds1', status: 'UPLOADING' });
      return json(res, 400, { message: 'unexpected' });
    });
    base = twin.url;
    // Act
    const code = await run([FOLDER, '--api', twin.url, '--email', 'a@b.org', '--mrn', 'M1', '--quiet']);
    // Assert
    expect(code).toBe(0);
    expect(twin.seen.filter((r) => r.path === '/api/uploads/s1/parts').map((r) => JSON.parse(r.body))).toEqual([
      { partNumbers: [1] },
    ]);
    const put = twin.seen.filter((r) => r.path === '/part/1');
    expect(put).toHaveLength(1);
    const archive = new TextEncoder().encode(put[0]!.body);
    const files: string[] = [];
    for await (const file of unpackArchive(
      (async function* () {
        yield archive;
      })(),
      [3, 3],
    ))
      files.push(new TextDecoder().decode(file.bytes));
    expect(files).toEqual(['one', 'two']);
    for (const name of ['DOE', 'JANE', 'SMITH', 'JOHN', 'IM1', 'IM2', '.dcm']) expect(put[0]!.body).not.toContain(name);
  });

  it('needs the MRN to be given instead of taking the folder name', async () => {
    // Act
    const code = await run([FOLDER, '--api', 'http://127.0.0.1:9', '--email', 'a@b.org']);
    // Assert
    expect(code).toBe(2);
    expect(stderr).toContain('--api, --email and --mrn are required');
  });
});
