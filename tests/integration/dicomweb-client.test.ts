import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import XMLHttpRequest from 'xhr2';
import { intakeCommitGuard } from '#functions/lib/idempotency.ts';
import { createApi } from '#infra/local/api.ts';
import { allowedHosts, refuseForeignHost } from '#infra/local/internal-gate.ts';
import { commitStudy } from '#shared/domain/intake/commit-study.ts';
import { receiveInstance } from '#shared/domain/intake/receive-instance.ts';
import { parseMediaType, parseMultipart } from '#shared/domain/intake/multipart.ts';
import { DICOMWEB_SCOPES } from '#shared/vocabulary/integrations.ts';
import { buildDicom, buildStudy, rampPixels } from '#tests/helpers/dicom-builder.ts';
import { runPipeline, startHarness, type Harness } from './datasets-harness.ts';

/**
 * The JS client OHIF is built on (dicomweb-client), unmodified, against the DICOMweb routes behind a real HTTP server:
 * the twin's API Gateway stand-in (infra/local/api.ts) and its Host check, over the in-process harness's table and
 * object store. The only stand-in is the token check: a bearer token of the test names an integration's app client,
 * as the Cognito authorizer would hand its claims over (docs/dicom-intake.md#dicomweb-clients).
 */
const ADMIN = 'admin@northside.demo.local';
const TEAM = 'team-northside-neuroradiology';
const SOURCE_STUDY = '1.2.826.0.1.3680043.9.9999.2';
const TOKEN = 'client-token';
const TAGS = {
  StudyInstanceUID: '0020000D',
  SeriesInstanceUID: '0020000E',
  SOPInstanceUID: '00080018',
  ReferencedSOPSequence: '00081199',
  NumberOfStudyRelatedInstances: '00201208',
  NumberOfSeriesRelatedInstances: '00201209',
  PixelData: '7FE00010',
} as const;

type DicomJson = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>;
type Uids = { studyInstanceUID?: string; seriesInstanceUID?: string; sopInstanceUID?: string };
/**
 * The client's methods as its documentation gives them: its bundled types, generated from JSDoc, mark every option
 * required (the request, the media types), so the calls are typed here as the library's README makes them.
 */
type Client = {
  storeInstances(options: { datasets: ArrayBuffer[] }): Promise<unknown>;
  searchForStudies(options?: object): Promise<unknown>;
  searchForSeries(options: Uids): Promise<unknown>;
  searchForInstances(options: Uids): Promise<unknown>;
  retrieveInstance(options: Uids): Promise<unknown>;
  retrieveSeries(options: Uids): Promise<unknown>;
  retrieveInstanceMetadata(options: Uids): Promise<unknown>;
  retrieveSeriesMetadata(options: Uids): Promise<unknown>;
  retrieveBulkData(options: { BulkDataURI: string }): Promise<unknown>;
  retrieveInstanceFrames(options: Uids & { frameNumbers: number[] }): Promise<unknown>;
  retrieveInstanceRendered(options: Uids & { mediaTypes: { mediaType: string }[] }): Promise<unknown>;
};

let h: Harness;
let server: Server;
let port: number;
let client: Client;
let clientId: string;

const first = (dataset: DicomJson, tag: string) => dataset[tag]?.Value?.[0];
const files = () => buildStudy([{ seriesNumber: 1, slices: 3 }]);

/** A request to the server with its own headers, as a client other than the JS one would send it. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${TOKEN}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function commitAndProcess(commit: () => Promise<unknown>) {
  const before = h.started.length;
  await commit();
  expect(h.started.length).toBe(before + 1);
  expect(await runPipeline(h.started.at(-1)!)).toEqual({ ok: true });
}

beforeAll(async () => {
  h = await startHarness();
  const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
    as: ADMIN,
    body: { name: 'OHIF viewer', teamId: TEAM, quietSeconds: 300 },
  });
  expect(created.status).toBe(201);
  clientId = created.body.integration.clientId as string;
  const api = createApi({
    invoke: async (domain, event) => {
      if (domain !== 'dicomweb') throw new Error(`No ${domain} here`);
      const { handler } = await import('#functions/dicomweb/handler.ts');
      return handler(event as APIGatewayProxyEvent, {} as Context);
    },
    verifyIdToken: async () => undefined,
    verifyAccessToken: async (token) =>
      token === TOKEN
        ? { token_use: 'access', client_id: clientId, scope: `${DICOMWEB_SCOPES.read} ${DICOMWEB_SCOPES.write}` }
        : undefined,
    localHealth: async () => [],
    siteOrigin: 'http://localhost',
    log: () => undefined,
  });
  let hosts = new Set<string>();
  server = createServer((req, res) => {
    if (refuseForeignHost(req, res, hosts)) return;
    void api(req, res, new URL(req.url ?? '/', `http://${req.headers.host}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  hosts = new Set(allowedHosts('127.0.0.1', port));
  // As the twin's DICOMWEB_URL: the base of Retrieve URLs and BulkDataURIs.
  h.deps.intakeEndpoints.dicomWebUrl = `http://127.0.0.1:${port}/dicomweb`;
  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = XMLHttpRequest;
  const { api: dicomweb } = await import('dicomweb-client');
  client = new dicomweb.DICOMwebClient({
    url: `http://127.0.0.1:${port}/dicomweb`,
    headers: { Authorization: `Bearer ${TOKEN}` },
    singlepart: false,
  }) as unknown as Client;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await h?.stop();
});

describe('dicomweb-client (the JS client OHIF is built on), unmodified', () => {
  let study: string;
  let series: string;
  let instances: string[];

  it('stores a study, finds it at every level and retrieves its instances, metadata, bulk data and frames', async () => {
    // Arrange: three MR slices of one series
    const sent = files();

    // Act: STOW-RS, then commit and run the pipeline the commit started
    const stored = (await client.storeInstances({
      datasets: sent.map((f) => f.bytes.slice().buffer as ArrayBuffer),
    })) as string;
    const answer = JSON.parse(stored) as DicomJson;
    expect(answer[TAGS.ReferencedSOPSequence]?.Value).toHaveLength(3);
    await commitAndProcess(() => raw('POST', `/dicomweb/studies/${SOURCE_STUDY}/commit`));
    const studies = (await client.searchForStudies()) as DicomJson[];
    study = String(first(studies[0]!, TAGS.StudyInstanceUID));
    const seriesFound = (await client.searchForSeries({ studyInstanceUID: study })) as DicomJson[];
    series = String(first(seriesFound[0]!, TAGS.SeriesInstanceUID));
    const found = (await client.searchForInstances({
      studyInstanceUID: study,
      seriesInstanceUID: series,
    })) as DicomJson[];
    instances = found.map((d) => String(first(d, TAGS.SOPInstanceUID)));
    const target = { studyInstanceUID: study, seriesInstanceUID: series, sopInstanceUID: instances[0]! };
    const instance = (await client.retrieveInstance(target)) as ArrayBuffer;
    const [metadata] = (await client.retrieveInstanceMetadata(target)) as DicomJson[];
    const bulkDataURI = metadata![TAGS.PixelData]!.BulkDataURI!;
    const [bulk] = (await client.retrieveBulkData({ BulkDataURI: bulkDataURI })) as ArrayBuffer[];
    const frames = (await client.retrieveInstanceFrames({ ...target, frameNumbers: [1] })) as ArrayBuffer[];

    // Assess: one study of one series of three de-identified instances
    expect(studies).toHaveLength(1);
    expect(seriesFound).toHaveLength(1);
    expect(first(seriesFound[0]!, TAGS.NumberOfSeriesRelatedInstances)).toBe(3);
    expect(new Set(instances).size).toBe(3);
    expect(Buffer.from(instance).subarray(128, 132).toString('latin1')).toBe('DICM');
    // Assess: the pixel data is named by a BulkDataURI under the instance, and it and frame 1 are the slice's pixels
    expect(metadata![TAGS.PixelData]!.vr).toBe('OW');
    expect(bulkDataURI).toBe(
      `http://127.0.0.1:${port}/dicomweb/studies/${study}/series/${series}/instances/${instances[0]}/bulkdata/7FE00010`,
    );
    expect(new Uint8Array(bulk!)).toEqual(rampPixels());
    expect(frames).toHaveLength(1);
    expect(new Uint8Array(frames[0]!)).toEqual(rampPixels());
  });

  it('retrieves an instance rendered as JPEG and as PNG, and a series rendered', async () => {
    // Arrange
    const target = { studyInstanceUID: study, seriesInstanceUID: series, sopInstanceUID: instances[0]! };

    // Act
    const [asJpeg] = (await client.retrieveInstanceRendered({
      ...target,
      mediaTypes: [{ mediaType: 'image/jpeg' }],
    })) as ArrayBuffer[];
    const [asPng] = (await client.retrieveInstanceRendered({
      ...target,
      mediaTypes: [{ mediaType: 'image/png' }],
    })) as ArrayBuffer[];
    const seriesRendered = await raw('GET', `/dicomweb/studies/${study}/series/${series}/rendered`, {
      accept: 'image/png',
    });

    // Assess: the magic bytes of each format, and the slice's 8 x 8 pixels
    const jpegBytes = Buffer.from(asJpeg!);
    expect([...jpegBytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const decoded = jpeg.decode(jpegBytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([8, 8]);
    const pngBytes = Buffer.from(asPng!);
    expect(pngBytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const png = PNG.sync.read(pngBytes);
    expect([png.width, png.height]).toEqual([8, 8]);
    // The ramp runs 0 to 63 and is windowed on its own minimum and maximum: black first, white last
    expect([png.data[0], png.data[(8 * 8 - 1) * 4]]).toEqual([0, 255]);
    expect(seriesRendered.status).toBe(200);
    const type = parseMediaType(String(seriesRendered.headers['content-type']));
    expect(type).toMatchObject({ type: 'multipart/related', params: { type: 'image/png' } });
    const parts = parseMultipart(new Uint8Array(seriesRendered.body), type.params.boundary!);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(PNG.sync.read(Buffer.from(part.bytes)).width).toBe(8);
  });

  it('answers 406 for a rendering in a media type it does not make, and 404 for a frame the instance lacks', async () => {
    // Act
    const gif = await raw('GET', `/dicomweb/studies/${study}/series/${series}/instances/${instances[0]}/rendered`, {
      accept: 'image/gif',
    });
    const noFrame = await raw('GET', `/dicomweb/studies/${study}/series/${series}/instances/${instances[0]}/frames/2`);

    // Assess
    expect(gif.status).toBe(406);
    expect(JSON.parse(gif.body.toString()).error.code).toBe('MEDIA_TYPE_NOT_AVAILABLE');
    expect(noFrame.status).toBe(404);
  });

  it('keeps one instance per SOP Instance UID when an instance is sent again after the commit, by STOW-RS or C-STORE', async () => {
    // Arrange: the same slice again over STOW-RS, twice in one request (a retry before the commit), committed and
    // processed into a dataset of its own
    const again = files()[0]!.bytes;
    const datasetsBefore = (await h.call('GET', '/api/datasets', { as: ADMIN })).body.items.length as number;
    const restored = (await client.storeInstances({
      datasets: [again.slice().buffer as ArrayBuffer, again.slice().buffer as ArrayBuffer],
    })) as unknown;
    expect(JSON.parse(String(restored))[TAGS.ReferencedSOPSequence].Value).toHaveLength(2);
    await commitAndProcess(() => raw('POST', `/dicomweb/studies/${SOURCE_STUDY}/commit`));
    // Arrange: and the same slice from a DICOM node, through the receiver C-STORE shares with STOW-RS
    const node = await h.call('POST', '/api/integrations/dicom-nodes', {
      as: ADMIN,
      body: { name: 'MR scanner', teamId: TEAM, aeTitle: 'MR-RESEND', allowedAddresses: ['127.0.0.1'] },
    });
    expect(node.status, JSON.stringify(node.body)).toBe(201);
    const integration = (await h.deps.integrations.get(h.user(ADMIN).hospitalId, node.body.id as string))!;
    const received = await receiveInstance(again, { integration, via: 'C_STORE' }, h.deps);
    expect(received.stored).toBe(true);
    await commitAndProcess(() => commitStudy(integration, SOURCE_STUDY, h.deps, intakeCommitGuard(h.deps.idempotency)));

    // Act
    const datasetsAfter = (await h.call('GET', '/api/datasets', { as: ADMIN })).body.items.length as number;
    const found = (await client.searchForInstances({ studyInstanceUID: study })) as DicomJson[];
    const [studyFound] = (await client.searchForStudies()) as DicomJson[];
    const seriesFound = (await client.searchForSeries({ studyInstanceUID: study })) as DicomJson[];
    const target = { studyInstanceUID: study, seriesInstanceUID: series, sopInstanceUID: instances[0]! };
    const retrieved = (await client.retrieveSeries({
      studyInstanceUID: study,
      seriesInstanceUID: series,
    })) as unknown[];
    const one = await raw('GET', `/dicomweb/studies/${study}/series/${series}/instances/${instances[0]}`);
    const metadata = (await client.retrieveSeriesMetadata(target)) as DicomJson[];

    // Assess: the copies are datasets of their own, yet DICOMweb serves each instance once and counts it once
    expect(datasetsAfter).toBe(datasetsBefore + 2);
    expect(found.map((d) => first(d, TAGS.SOPInstanceUID)).sort()).toEqual([...instances].sort());
    expect(first(studyFound!, TAGS.NumberOfStudyRelatedInstances)).toBe(3);
    expect(seriesFound).toHaveLength(1);
    expect(first(seriesFound[0]!, TAGS.NumberOfSeriesRelatedInstances)).toBe(3);
    expect(retrieved).toHaveLength(3);
    expect(metadata).toHaveLength(3);
    const oneType = parseMediaType(String(one.headers['content-type']));
    expect(parseMultipart(new Uint8Array(one.body), oneType.params.boundary!)).toHaveLength(1);
  });

  it('stages a 30 MB series in the studies bucket and sends the client there with 303 See Other', async () => {
    // Arrange: the series' served instances become 2560 x 2048 16-bit slices (10 MiB of pixels each)
    const hospitalId = h.user(ADMIN).hospitalId;
    const found = (await client.searchForInstances({ studyInstanceUID: study })) as DicomJson[];
    const served = await h.deps.objects.list('studies', `${hospitalId}/`);
    const big = new Map<string, Uint8Array>();
    for (const object of served.filter((o) => o.key.endsWith('.dcm'))) {
      const sopInstanceUID = object.key.slice(object.key.lastIndexOf('/') + 1, -'.dcm'.length);
      const bytes = buildDicom({
        extra: [
          { tag: '00080018', vr: 'UI', value: sopInstanceUID },
          { tag: '00280010', vr: 'US', value: [2048] },
          { tag: '00280011', vr: 'US', value: [2560] },
          { tag: '7FE00010', vr: 'OW', value: rampPixels(2048, 2560) },
        ],
      });
      await h.deps.objects.put('studies', object.key, bytes);
      big.set(sopInstanceUID, bytes);
    }

    // Act
    const answer = await raw('GET', `/dicomweb/studies/${study}/series/${series}`);
    const location = new URL(String(answer.headers.location));
    const key = decodeURIComponent(location.pathname.slice('/studies/'.length));
    const staged = await h.deps.objects.get('studies', key);
    const boundary = key.slice(key.lastIndexOf('/') + 1, -'.multipart'.length);
    const parts = parseMultipart(staged, boundary);

    // Assess: a link to the whole multipart answer, one part per served instance, byte for byte
    expect(answer.status).toBe(303);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(key.startsWith(`retrievals/${hospitalId}/`)).toBe(true);
    expect(staged.byteLength).toBeGreaterThan(30 * 1024 * 1024);
    expect(parts).toHaveLength(found.length);
    const matched = parts.map((part) => [...big].find(([, bytes]) => Buffer.from(bytes).equals(part.bytes))?.[0]);
    expect(new Set(matched)).toEqual(new Set(found.map((d) => String(first(d, TAGS.SOPInstanceUID)))));
  }, 120_000);
});

describe('the HTTP front door', () => {
  it('answers 405 with an Allow header for a method a DICOMweb or /api path does not have', async () => {
    // Act
    const put = await raw('PUT', '/dicomweb/studies');
    const deleteInstance = await raw('DELETE', '/dicomweb/studies/1.2.3/series/1.2.3.4/instances/1.2.3.4.5');
    const patchHealth = await raw('PATCH', '/api/health');
    const unknown = await raw('GET', '/dicomweb/nothing-here');

    // Assess
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
    expect(JSON.parse(put.body.toString()).error.code).toBe('METHOD_NOT_ALLOWED');
    expect(deleteInstance.status).toBe(405);
    expect(deleteInstance.headers.allow).toBe('GET');
    expect(patchHealth.status).toBe(405);
    expect(patchHealth.headers.allow).toBe('GET');
    expect(unknown.status).toBe(404);
  });

  it('answers a Host header without the port, as the Python client sends it, and refuses another host name', async () => {
    // Act
    const bare = await raw('GET', '/dicomweb/studies', { host: '127.0.0.1' });
    const localhost = await raw('GET', '/dicomweb/studies', { host: 'localhost' });
    const foreign = await raw('GET', '/dicomweb/studies', { host: 'evil.example' });

    // Assess
    expect(bare.status).toBe(200);
    expect(localhost.status).toBe(200);
    expect(foreign.status).toBe(421);
  });
});
