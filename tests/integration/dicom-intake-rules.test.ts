import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createListener } from '#functions/dicom-listener/server.ts';
import { proxyV2Header } from '#functions/dicom-listener/proxy-protocol.ts';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { BYTES_PER_GB } from '#shared/domain/settings/enforce.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { DEFAULT_HOSPITAL_POLICY, type Policy } from '#shared/schemas/api/policies.ts';
import {
  baseElements,
  buildDicom,
  encodeDataSet,
  rampPixels,
  type BuiltElement,
} from '#tests/helpers/dicom-builder.ts';
import { freePort } from '#tests/helpers/orthanc.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Intake under the same rules as uploads (docs/dicom-intake.md#intake-rules): STOW-RS and C-STORE instances pass the
 * policy's file size, a format known from their content, and the hospital's storage cap counting the studies being
 * received; the listener aborts an association past its byte cap and, behind the balancer, checks the node's address
 * from the PROXY v2 header. In process: the real DICOMweb handlers and listener over the harness's table and store.
 */
const ADMIN = 'admin@northside.demo.local';
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const ROOT = '1.2.826.0.1.3680043.9.7777';
const OUT_OF_RESOURCES = 0xa700;
const CANNOT_UNDERSTAND = 0xc000;
const FailedSOPSequence = '00081198';
const FailureReason = '00081197';

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;
type Reply = { statusCode: number; body: string };

let h: Harness;
let clientId: string;
let work: string;

/** An MR instance of study `study`, instance `n`, with `pixelBytes` of pixel data. */
function instance(study: number, n: number, pixelBytes?: number): Uint8Array {
  const extra: BuiltElement[] = [
    { tag: '00080018', vr: 'UI', value: `${ROOT}.${study}.1.${n}` },
    { tag: '0020000D', vr: 'UI', value: `${ROOT}.${study}` },
    { tag: '0020000E', vr: 'UI', value: `${ROOT}.${study}.1` },
    { tag: '00200013', vr: 'IS', value: String(n) },
    { tag: '7FE00010', vr: 'OW', value: pixelBytes ? new Uint8Array(pixelBytes) : rampPixels() },
  ];
  return buildDicom({ extra });
}

async function stow(parts: Uint8Array[]): Promise<{ status: number; reasons: number[] }> {
  const boundary = `rules-${Date.now()}`;
  const path = '/dicomweb/studies';
  const matched = matchRoute('POST', path)!;
  const body = buildMultipart(
    parts.map((bytes) => ({ contentType: 'application/dicom', bytes })),
    boundary,
  );
  const event = {
    httpMethod: 'POST',
    path,
    resource: matched.route.path,
    pathParameters: matched.pathParameters,
    queryStringParameters: null,
    headers: {
      host: 'harness.test',
      'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
    },
    multiValueHeaders: {},
    multiValueQueryStringParameters: null,
    stageVariables: null,
    isBase64Encoded: true,
    body: Buffer.from(body).toString('base64'),
    requestContext: {
      authorizer: { claims: { token_use: 'access', client_id: clientId, scope: 'imaging-dicomweb/write' } },
    },
  } as unknown as APIGatewayProxyEvent;
  const { handler } = await import('#functions/dicomweb/handler.ts');
  const reply = (await handler(event, {} as Context)) as Reply;
  const answer = JSON.parse(reply.body) as DicomJson;
  const failed = (answer[FailedSOPSequence]?.Value ?? []) as DicomJson[];
  return { status: reply.statusCode, reasons: failed.map((item) => Number(item[FailureReason]?.Value?.[0])) };
}

/** Raw uploads written for the hospital (the intake's files). */
async function rawFiles(): Promise<number> {
  return (await h.objects.list('uploads', `${HOSPITAL}/`)).filter((o) => /\/raw\//.test(o.key)).length;
}

async function setPolicy(change: Partial<Policy>): Promise<void> {
  await h.deps.settings.putHospitalPolicy(HOSPITAL, {
    value: { ...DEFAULT_HOSPITAL_POLICY, ...change },
    updatedAt: new Date().toISOString(),
    updatedByUserId: 'test',
  });
}

/** Moves the hospital's storage counter to `bytes`. */
async function setStorageUsed(bytes: number): Promise<void> {
  const used = await h.deps.settings.storageUsedBytes(HOSPITAL);
  await h.deps.organisation.add(HOSPITAL, { kind: 'hospital' }, { storageUsedBytes: bytes - used });
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function createNode(aeTitle: string, allowedAddresses: string[]): Promise<string> {
  const created = await h.call('POST', '/api/integrations/dicom-nodes', {
    as: ADMIN,
    body: { name: `Node ${aeTitle}`, teamId: TEAM, aeTitle, allowedAddresses, quietSeconds: 300 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function startListener(options: { proxyProtocol?: boolean; maxAssociationBytes?: number } = {}) {
  const port = await freePort();
  const lines: string[] = [];
  const listener = createListener({
    port,
    host: '127.0.0.1',
    deps: async () => h.deps,
    log: (line) => lines.push(line),
    spoolDir: work,
    ...options,
  });
  expect(await listener.listen()).toBe(true);
  return { port, lines, close: () => listener.close() };
}

beforeAll(async () => {
  h = await startHarness();
  work = mkdtempSync(join(tmpdir(), 'iws-intake-rules-'));
  const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
    as: ADMIN,
    body: { name: 'Rules PACS', teamId: TEAM, quietSeconds: 300 },
  });
  expect(created.status).toBe(201);
  clientId = created.body.integration.clientId as string;
}, 60_000);

afterEach(async () => {
  await setPolicy({});
  await setStorageUsed(0);
});

afterAll(async () => {
  await h?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('STOW-RS under the upload rules', () => {
  it('refuses a request whose parts together pass the storage cap, and counts the studies being received', async () => {
    // Prepare: a 1 GB cap with room for one and a half instances
    const size = instance(1, 1).byteLength;
    await setPolicy({ storageCompute: { ...DEFAULT_HOSPITAL_POLICY.storageCompute, storageCapGB: 1 } });
    await setStorageUsed(BYTES_PER_GB - Math.floor(size * 1.5));
    const before = await rawFiles();

    // Act: three instances at once, then one, then another one while the first is still being received
    const whole = await stow([instance(1, 1), instance(1, 2), instance(1, 3)]);
    const first = await stow([instance(1, 1)]);
    const second = await stow([instance(1, 2)]);

    // Assess: the request over the cap stores nothing (A700 for every part); the received study counts
    expect(whole).toEqual({ status: 409, reasons: [OUT_OF_RESOURCES, OUT_OF_RESOURCES, OUT_OF_RESOURCES] });
    expect(first).toEqual({ status: 200, reasons: [] });
    expect(second).toEqual({ status: 409, reasons: [OUT_OF_RESOURCES] });
    expect(await rawFiles()).toBe(before + 1);
  });

  it("refuses an instance over the policy's file size with Out of Resources, beside one that fits", async () => {
    // Prepare
    await setPolicy({ maxFileSizeMB: 1 });
    const before = await rawFiles();

    // Act
    const answer = await stow([instance(2, 1, 1_200_000), instance(2, 2)]);

    // Assess
    expect(answer).toEqual({ status: 202, reasons: [OUT_OF_RESOURCES] });
    expect(await rawFiles()).toBe(before + 1);
  });

  it('refuses by content what is declared application/dicom but is not a PS3.10 file the engine reads', async () => {
    // Prepare: a raw data set without preamble or meta group, a gzipped file, a text file, a truncated file
    const rawDataSet = encodeDataSet(
      [
        ...baseElements().filter((e) => !['00080018', '0020000D', '0020000E'].includes(e.tag)),
        { tag: '00080018', vr: 'UI', value: `${ROOT}.3.1.1` },
        { tag: '0020000D', vr: 'UI', value: `${ROOT}.3` },
        { tag: '0020000E', vr: 'UI', value: `${ROOT}.3.1` },
      ].sort((a, b) => a.tag.localeCompare(b.tag)),
      { explicit: true, littleEndian: true },
    );
    const gzipped = gzipSync(instance(3, 2));
    const text = new TextEncoder().encode('not an image at all, whatever the Content-Type says');
    const whole = instance(3, 4, 4096);
    const truncated = whole.subarray(0, whole.byteLength - 1000);
    const before = await rawFiles();

    // Act
    const answer = await stow([rawDataSet, gzipped, text, truncated]);

    // Assess
    expect(answer).toEqual({ status: 409, reasons: Array(4).fill(CANNOT_UNDERSTAND) });
    expect(await rawFiles()).toBe(before);
  });
});

describe('STOW-RS and the allowed formats', () => {
  it("refuses DICOM with Cannot understand where the policy's allowed formats leave it out", async () => {
    // Prepare
    await setPolicy({ allowedFormats: ['nii', 'nifti'] });
    const before = await rawFiles();

    // Act
    const refused = await stow([instance(6, 1)]);
    await setPolicy({ allowedFormats: ['dcm'] });
    const admitted = await stow([instance(6, 1)]);

    // Assess: either of the policy's DICOM formats admits it
    expect(refused).toEqual({ status: 409, reasons: [CANNOT_UNDERSTAND] });
    expect(admitted).toEqual({ status: 200, reasons: [] });
    expect(await rawFiles()).toBe(before + 1);
  });
});

describe('C-STORE under the upload rules', () => {
  it('answers Out of Resources (A700) over the storage cap and stores nothing', async () => {
    // Prepare
    await createNode('CAPSCU', ['127.0.0.1']);
    const file = join(work, 'cap.dcm');
    writeFileSync(file, instance(4, 1));
    await setPolicy({ storageCompute: { ...DEFAULT_HOSPITAL_POLICY.storageCompute, storageCapGB: 1 } });
    await setStorageUsed(BYTES_PER_GB - 100);
    const listener = await startListener();
    const before = await rawFiles();
    try {
      // Act
      const sent = await run('storescu', [
        '-v',
        '-aet',
        'CAPSCU',
        '-aec',
        'IWS-INTAKE',
        '127.0.0.1',
        String(listener.port),
        file,
      ]);

      // Assess
      expect(sent.output).toMatch(/Refused: ?Out ?Of ?Resources/i);
      expect(await rawFiles()).toBe(before);

      // Act: room again; the same instance is stored, through the spool, which it leaves empty
      await setStorageUsed(0);
      const again = await run('storescu', [
        '-v',
        '-aet',
        'CAPSCU',
        '-aec',
        'IWS-INTAKE',
        '127.0.0.1',
        String(listener.port),
        file,
      ]);
      expect(again.code, again.output).toBe(0);
      expect(again.output).toMatch(/Received Store Response \(Success\)/);
      expect(await rawFiles()).toBe(before + 1);
      expect(readSpool()).toEqual([]);
    } finally {
      await listener.close();
    }
  }, 60_000);

  it("answers Out of Resources over the policy's file size, and aborts an association past its byte cap", async () => {
    // Prepare
    await createNode('SIZESCU', ['127.0.0.1']);
    const large = join(work, 'large.dcm');
    writeFileSync(large, instance(5, 1, 1_200_000));
    await setPolicy({ maxFileSizeMB: 1 });
    const listener = await startListener();
    const capped = await startListener({ maxAssociationBytes: 64 * 1024 });
    const before = await rawFiles();
    try {
      // Act
      const tooLarge = await run('storescu', [
        '-v',
        '-aet',
        'SIZESCU',
        '-aec',
        'IWS-INTAKE',
        '127.0.0.1',
        String(listener.port),
        large,
      ]);
      await setPolicy({});
      const aborted = await run('storescu', [
        '-v',
        '-aet',
        'SIZESCU',
        '-aec',
        'IWS-INTAKE',
        '127.0.0.1',
        String(capped.port),
        large,
      ]);

      // Assess
      expect(tooLarge.output).toMatch(/Refused: ?Out ?Of ?Resources/i);
      expect(aborted.code).not.toBe(0);
      expect(aborted.output).toMatch(/abort|Peer aborted|connection closed/i);
      expect(capped.lines.join('\n')).toMatch(/aborted \(association byte cap\)/);
      expect(await rawFiles()).toBe(before);
      // The instance cut short is removed once its file is closed.
      await expect.poll(readSpool, { timeout: 5_000 }).toEqual([]);
    } finally {
      await listener.close();
      await capped.close();
    }
  }, 60_000);
});

/** What the listener left in its spool folder (nothing, once an instance is answered or its association gone). */
function readSpool(): string[] {
  return readdirSync(work).filter((n) => n.startsWith('iws-cstore-'));
}

describe('the listener behind the load balancer (PROXY protocol v2)', () => {
  /** A stand-in for the Network Load Balancer: each connection is forwarded with a PROXY v2 header naming `client`. */
  async function balancer(target: number, client: string): Promise<{ port: number; server: Server }> {
    const port = await freePort();
    const server = createServer((inbound) => {
      const outbound = connect(target, '127.0.0.1', () => {
        outbound.write(proxyV2Header({ address: client, port: 40_000 }, { address: '10.0.0.10', port: target }));
        inbound.pipe(outbound);
        outbound.pipe(inbound);
      });
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return { port, server };
  }

  it("admits a node by the client address of the PROXY header, not the balancer's, and closes a connection without one", async () => {
    // Prepare: the node sends from 10.9.8.7; the balancer (here 127.0.0.1) is no node's address
    await createNode('PROXYSCU', ['10.9.8.7']);
    await createNode('LOCALSCU', ['127.0.0.1']);
    const listener = await startListener({ proxyProtocol: true });
    const fromNode = await balancer(listener.port, '10.9.8.7');
    const fromElsewhere = await balancer(listener.port, '192.0.2.1');
    const echo = (port: number, aet: string) =>
      run('echoscu', ['-aet', aet, '-aec', 'IWS-INTAKE', '127.0.0.1', String(port)]);
    try {
      // Act
      const admitted = await echo(fromNode.port, 'PROXYSCU');
      const otherClient = await echo(fromElsewhere.port, 'PROXYSCU');
      const balancerAddress = await echo(fromNode.port, 'LOCALSCU');
      const direct = await echo(listener.port, 'LOCALSCU');

      // Assess
      expect(admitted.code, admitted.output).toBe(0);
      expect(otherClient.output).toMatch(/Calling AE Title Not Recognized/i);
      expect(balancerAddress.output).toMatch(/Calling AE Title Not Recognized/i);
      expect(direct.code).not.toBe(0);
      expect(listener.lines).toContain('DICOM connection refused (no PROXY protocol header)');
    } finally {
      await listener.close();
      fromNode.server.close();
      fromElsewhere.server.close();
    }
  }, 60_000);
});
