/**
 * A real Orthanc (Debian's `orthanc` with the `orthanc-dicomweb` plugin) as a peer of the intake tests: its own
 * process, temporary configuration, ports and storage folder; the system service is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ORTHANC_BIN = '/usr/sbin/Orthanc';
export const DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type Orthanc = {
  url: string;
  aeTitle: string;
  dicomPort: number;
  /** JSON call of Orthanc's REST API; throws on a status outside 2xx. */
  rest<T = unknown>(path: string, init?: { method?: string; body?: unknown; raw?: Uint8Array }): Promise<T>;
  stop(): Promise<void>;
};

export async function startOrthanc(options: {
  aeTitle: string;
  dicomWebServers?: Record<string, { Url: string; HttpHeaders?: Record<string, string> }>;
  modalities?: Record<string, [string, string, number]>;
}): Promise<Orthanc> {
  const dir = mkdtempSync(join(tmpdir(), 'iws-orthanc-'));
  const httpPort = await freePort();
  const dicomPort = await freePort();
  const config = {
    Name: 'IWS test peer',
    StorageDirectory: join(dir, 'storage'),
    IndexDirectory: join(dir, 'storage'),
    HttpPort: httpPort,
    DicomPort: dicomPort,
    DicomAet: options.aeTitle,
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    HttpServerEnabled: true,
    DicomServerEnabled: true,
    Plugins: [DICOMWEB_PLUGIN],
    DicomModalities: options.modalities ?? {},
    DicomWeb: {
      Enable: true,
      Root: '/dicom-web/',
      // Under API Gateway's 10 MB body limit: a batch is sent once it reaches this size (docs/dicom-intake.md).
      StowMaxSize: 8,
      StowMaxInstances: 20,
      Servers: options.dicomWebServers ?? {},
    },
  };
  const configPath = join(dir, 'orthanc.json');
  writeFileSync(configPath, JSON.stringify(config));
  const child: ChildProcess = spawn(ORTHANC_BIN, ['--verbose', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  // Its errors and its HTTP client's statuses: enough to say why a call to the twin failed.
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = chunk
      .toString()
      .split('\n')
      .filter((line) => /^E|HttpClient\.cpp:10[58]/.test(line));
    if (lines.length) stderr = `${stderr}${lines.join('\n')}\n`.slice(-4000);
  });
  const url = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Orthanc exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`${url}/system`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Orthanc did not start within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    aeTitle: options.aeTitle,
    dicomPort,
    async rest<T>(path: string, init: { method?: string; body?: unknown; raw?: Uint8Array } = {}) {
      const response = await fetch(`${url}${path}`, {
        method: init.method ?? (init.body === undefined && !init.raw ? 'GET' : 'POST'),
        headers: init.raw ? { 'content-type': 'application/dicom' } : { 'content-type': 'application/json' },
        body: init.raw ? Buffer.from(init.raw) : init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`Orthanc ${path}: ${response.status} ${text.slice(0, 300)}\nOrthanc's log:\n${stderr}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
