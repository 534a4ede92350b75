import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskUploadSource } from '#cli/commands/upload.ts';
import { uploadDataset } from '#shared/client/index.ts';
import { buildMultipart, parseMediaType, parseMultipart } from '#shared/domain/intake/multipart.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { apiFetch, signIn, startTestStack, type TestStack } from '#tests/helpers/local-stack.ts';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';
import { freePort, startOrthanc, type Orthanc } from '#tests/helpers/orthanc.ts';

/**
 * DICOM intake against real peers (docs/dicom-intake.md): Orthanc sends a study by STOW-RS and by C-STORE, dcmtk's
 * storescu and echoscu talk to the listener, and the studies reach COMPLETE in the integration's hospital and team
 * and are found again through QIDO-RS and WADO-RS (de-identified only). Bad input stores nothing.
 */
const T1_DIR = sharedDataPath('dicom/ge-t1-ir-spgr/dicom');
const CT = sharedDataPath('dicom/ct-small/CT_small.dcm');
const PET_DIR = sharedDataPath('dicom/pet-slices');
const ADMIN = 'admin@northside.demo.local';
const OTHER_ADMIN = 'admin@lakeview.demo.local';
const LEAD = 'lead@northside.demo.local';
const TEAM = 'team-northside-neuroradiology';
const OTHER_TEAM = 'team-lakeview-mri';

type Integration = { id: string; clientId?: string; teamId: string; hospitalId: string; status: string };
type Dataset = {
  id: string;
  status: string;
  teamId: string;
  hospitalId: string;
  ownerUserId: string;
  failureReason?: string;
};
type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

let twin: TestStack;
let dicomPort: number;
let adminToken: string;
let endpoints: { tokenUrl: string; dicomWebUrl: string; dicomPort?: number; calledAeTitle: string };

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function createClient(
  token: string,
  name: string,
  teamId = TEAM,
): Promise<{ integration: Integration; clientSecret: string; tokenUrl: string }> {
  const response = await apiFetch(twin.url, token, '/api/integrations/dicomweb-clients', {
    method: 'POST',
    body: { name, teamId, quietSeconds: 10 },
  });
  expect(response.status).toBe(201);
  return json(response);
}

async function accessToken(tokenUrl: string, clientId: string, secret: string, scope?: string): Promise<string> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function dicomweb(token: string | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${twin.url}/dicomweb${path}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
  });
}

function stow(token: string, files: Uint8Array[], path = '/studies', contentType?: string): Promise<Response> {
  const boundary = `iws-${Date.now()}`;
  return dicomweb(token, path, {
    method: 'POST',
    headers: {
      'content-type': contentType ?? `multipart/related; type="application/dicom"; boundary=${boundary}`,
      accept: 'application/dicom+json',
    },
    body: Buffer.from(
      buildMultipart(
        files.map((bytes) => ({ contentType: 'application/dicom', bytes })),
        boundary,
      ),
    ),
  });
}

async function datasetsOf(ownerUserId: string, as = adminToken): Promise<Dataset[]> {
  const response = await apiFetch(twin.url, as, '/api/datasets?limit=48');
  const page = await json<{ items: Dataset[] }>(response);
  return page.items.filter((d) => d.ownerUserId === ownerUserId);
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The dataset of an integration once the pipeline is done with it (the sweep or a commit started it). */
async function completedDatasetOf(ownerUserId: string, timeoutMs: number): Promise<Dataset> {
  return waitFor(
    async () => {
      const [dataset] = await datasetsOf(ownerUserId);
      if (dataset?.status === 'FAILED') throw new Error(`dataset failed: ${dataset.failureReason}`);
      return dataset?.status === 'COMPLETE' ? dataset : undefined;
    },
    timeoutMs,
    `the dataset of ${ownerUserId} to reach COMPLETE`,
  );
}

function value(dataset: DicomJson, tag: string): unknown {
  return dataset[tag]?.Value?.[0];
}

function run(command: string, args: string[], timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function assetTypes(datasetId: string): Promise<string[]> {
  const response = await apiFetch(twin.url, adminToken, `/api/datasets/${datasetId}/assets`);
  const body = await json<{ items?: { type: string; label: string }[] } | { type: string; label: string }[]>(response);
  const items = Array.isArray(body) ? body : (body.items ?? []);
  return items.map((a) => `${a.type}:${a.label}`).sort();
}

beforeAll(async () => {
  process.env.IWS_INTAKE_SWEEP_MS = '1000';
  dicomPort = await freePort();
  twin = await startTestStack({ dicomPort });
  adminToken = await signIn(twin.url, ADMIN);
  const list = await json<{ endpoints: typeof endpoints }>(await apiFetch(twin.url, adminToken, '/api/integrations'));
  endpoints = list.endpoints;
}, 120_000);

afterAll(async () => {
  await twin?.dispose();
  delete process.env.IWS_INTAKE_SWEEP_MS;
});

describe('DICOMweb clients', () => {
  it('creates a client whose secret is shown once, and its token reaches only the DICOMweb routes', async () => {
    // Act
    const created = await createClient(adminToken, 'Research PACS');
    const listed = await json<{ items: Integration[] }>(await apiFetch(twin.url, adminToken, '/api/integrations'));
    const token = await accessToken(created.tokenUrl, created.integration.clientId!, created.clientSecret);
    // Assess
    expect(created.clientSecret.length).toBeGreaterThan(10);
    expect(created.tokenUrl).toBe(`${twin.url}/_aws/cognito/oauth2/token`);
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret);
    expect(listed.items.map((i) => i.id)).toContain(created.integration.id);
    expect(endpoints).toMatchObject({ dicomWebUrl: `${twin.url}/dicomweb`, dicomPort, calledAeTitle: 'IWS-INTAKE' });
    expect((await dicomweb(token, '/studies')).status).toBe(200);
    expect((await apiFetch(twin.url, token, '/api/me')).status).toBe(401);
    expect((await dicomweb(adminToken, '/studies')).status).toBe(401);
    expect((await dicomweb(undefined, '/studies')).status).toBe(401);
    const readOnly = await accessToken(
      created.tokenUrl,
      created.integration.clientId!,
      created.clientSecret,
      'imaging-dicomweb/read',
    );
    expect((await dicomweb(readOnly, '/studies')).status).toBe(200);
    // A token without the write scope passes the gateway (it carries a DICOMweb scope) and the route refuses it:
    // insufficient_scope, RFC 6750 3.1 (docs/dicom-intake.md#dicomweb-clients).
    const readOnlyStow = await stow(readOnly, [readFileSync(CT)]);
    expect(readOnlyStow.status).toBe(403);
    expect(((await readOnlyStow.json()) as { error: { code: string } }).error.code).toBe('INSUFFICIENT_SCOPE');
    const wrongSecret = await fetch(created.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${created.integration.clientId}:wrong`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(wrongSecret.status).toBe(401);
  });

  it('refuses a revoked client at once, its token notwithstanding, and audits create and revoke', async () => {
    // Prepare
    const created = await createClient(adminToken, 'Retired PACS');
    const token = await accessToken(created.tokenUrl, created.integration.clientId!, created.clientSecret);
    // Act
    const revoked = await apiFetch(twin.url, adminToken, `/api/integrations/${created.integration.id}`, {
      method: 'DELETE',
    });
    // Assess
    expect(revoked.status).toBe(200);
    expect((await json<Integration>(revoked)).status).toBe('REVOKED');
    expect((await dicomweb(token, '/studies')).status).toBe(401);
    const again = await fetch(created.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${created.integration.clientId}:${created.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(again.status).toBe(401);
    const audit = await json<{ items: { action: string; details: { integrationId?: string } }[] }>(
      await apiFetch(twin.url, adminToken, '/api/audit?limit=50'),
    );
    const mine = audit.items.filter((e) => e.details.integrationId === created.integration.id).map((e) => e.action);
    expect(mine).toEqual(expect.arrayContaining(['INTEGRATION_CREATED', 'INTEGRATION_REVOKED']));
  });
});

describe('STOW-RS, QIDO-RS and WADO-RS', () => {
  it('stores a study sent by Orthanc over DICOMweb; it reaches COMPLETE in the team with the assets of a browser upload, and QIDO and WADO find it de-identified', async () => {
    // Prepare: a client, its token in Orthanc's server entry, and the GE T1 study (196 files, 25 MB) in Orthanc.
    const created = await createClient(adminToken, 'Orthanc PACS');
    const token = await accessToken(created.tokenUrl, created.integration.clientId!, created.clientSecret);
    const orthanc: Orthanc = await startOrthanc({
      aeTitle: 'ORTHANCWEB',
      dicomWebServers: {
        twin: { Url: `${endpoints.dicomWebUrl}/`, HttpHeaders: { Authorization: `Bearer ${token}` } },
      },
    });
    try {
      const files = readdirSync(T1_DIR).filter((f) => f.endsWith('.dcm'));
      let orthancStudy = '';
      const batches: string[][] = [[]];
      let batchBytes = 0;
      for (const file of files) {
        const bytes = new Uint8Array(readFileSync(join(T1_DIR, file)));
        const added = await orthanc.rest<{ ID: string; ParentStudy: string }>('/instances', { raw: bytes });
        orthancStudy = added.ParentStudy;
        // Orthanc sends what one call names in one request: batches of instances under the gateway's 10 MB.
        if (batchBytes + bytes.byteLength > 8 * 1024 * 1024) {
          batches.push([]);
          batchBytes = 0;
        }
        batches.at(-1)!.push(added.ID);
        batchBytes += bytes.byteLength;
      }
      const tags = await orthanc.rest<{ MainDicomTags: { StudyInstanceUID: string } }>(`/studies/${orthancStudy}`);

      // Act: Orthanc's STOW-RS client, batch by batch; the quiet time then commits the study.
      for (const batch of batches)
        await orthanc.rest('/dicom-web/servers/twin/stow', { body: { Resources: batch, Synchronous: true } });
      expect(batches.length).toBeGreaterThan(2);
      const dataset = await completedDatasetOf(created.integration.id, 400_000);

      // Assess: the right hospital and team, 196 instances, de-identified on the way out.
      expect(dataset).toMatchObject({ hospitalId: 'hosp-northside', teamId: TEAM });
      const qido = await orthanc.rest<DicomJson[]>('/dicom-web/servers/twin/qido', {
        body: { Uri: '/studies', Arguments: { ModalitiesInStudy: 'MR', includefield: 'StudyDescription' } },
      });
      // Orthanc hands the answer back in its own shape: each tag's Value as one string.
      expect(qido).toHaveLength(1);
      const studyUid = String((qido[0]!['0020000D'] as { Value?: unknown }).Value);
      expect(studyUid).toMatch(/^2\.25\./);
      expect(studyUid).not.toBe(tags.MainDicomTags.StudyInstanceUID);
      const [study] = await json<DicomJson[]>(await dicomweb(token, `/studies?StudyInstanceUID=${studyUid}`));
      expect(value(study!, '00201208')).toBe(196);
      expect(value(study!, '00080061')).toBe('MR');
      const series = await json<DicomJson[]>(await dicomweb(token, `/studies/${studyUid}/series`));
      expect(series).toHaveLength(1);
      const seriesUid = String(value(series[0]!, '0020000E'));
      const instances = await json<DicomJson[]>(
        await dicomweb(token, `/studies/${studyUid}/series/${seriesUid}/instances?limit=5&offset=2`),
      );
      expect(instances).toHaveLength(5);
      const instanceUid = String(value(instances[0]!, '00080018'));
      const one = await dicomweb(token, `/studies/${studyUid}/series/${seriesUid}/instances/${instanceUid}`);
      expect(one.status).toBe(200);
      const media = parseMediaType(one.headers.get('content-type') ?? '');
      expect(media).toMatchObject({ type: 'multipart/related', params: { type: 'application/dicom' } });
      const [part] = parseMultipart(new Uint8Array(await one.arrayBuffer()), media.params.boundary!);
      const check = checkDicom(part!.bytes);
      expect(check.valid && check.parsed.dataSet.string('x00120062')).toBe('YES');
      const metadata = await json<DicomJson[]>(
        await dicomweb(token, `/studies/${studyUid}/series/${seriesUid}/instances/${instanceUid}/metadata`),
      );
      expect(value(metadata[0]!, '00120062')).toBe('YES');
      expect(metadata[0]!['7FE00010']?.Value).toBeUndefined();
      // The whole study is over one answer: staged in the studies bucket, and the client sent there (303).
      const whole = await dicomweb(token, `/studies/${studyUid}`, { redirect: 'manual' });
      expect(whole.status).toBe(303);
      const staged = await fetch(whole.headers.get('location')!);
      const stagedBody = new Uint8Array(await staged.arrayBuffer());
      expect(staged.status, new TextDecoder().decode(stagedBody.slice(0, 300))).toBe(200);
      const stagedMedia = parseMediaType(staged.headers.get('content-type') ?? '');
      expect(parseMultipart(stagedBody, stagedMedia.params.boundary!).length).toBeGreaterThan(1);

      // The same study uploaded in the browser's way gives the same assets.
      const lead = await signIn(twin.url, LEAD);
      const createdUpload = await apiFetch(twin.url, lead, '/api/datasets', {
        method: 'POST',
        body: newDatasetBody({ mrn: 'INTAKE-PARITY-1' }),
      });
      const uploadId = (await json<{ id: string }>(createdUpload)).id;
      await uploadDataset({
        api: { baseUrl: twin.url, getToken: async () => lead },
        datasetId: uploadId,
        salt: 'intake-parity',
        files: files.map((f) => diskUploadSource(join(T1_DIR, f), f, statSync(join(T1_DIR, f)).size)),
      });
      await waitFor(
        async () => {
          const got = await json<Dataset>(await apiFetch(twin.url, lead, `/api/datasets/${uploadId}`));
          return got.status === 'COMPLETE' ? got : undefined;
        },
        400_000,
        'the browser upload to reach COMPLETE',
      );
      expect(await assetTypes(dataset.id)).toEqual(await assetTypes(uploadId));
    } finally {
      await orthanc.stop();
    }
  }, 900_000);
});

describe('the DICOM listener (C-STORE SCP)', () => {
  async function createNode(name: string, aeTitle: string): Promise<Integration> {
    const response = await apiFetch(twin.url, adminToken, '/api/integrations/dicom-nodes', {
      method: 'POST',
      body: { name, teamId: TEAM, aeTitle, allowedAddresses: ['127.0.0.1'], quietSeconds: 10 },
    });
    expect(response.status).toBe(201);
    return json(response);
  }

  it('answers echoscu from a configured node and refuses an unknown AE title', async () => {
    // Prepare
    await createNode('Echo modality', 'ECHOSCU');
    // Act
    const known = await run('echoscu', ['-aet', 'ECHOSCU', '-aec', 'IWS-INTAKE', '127.0.0.1', String(dicomPort)]);
    const unknown = await run('echoscu', ['-aet', 'STRANGER', '-aec', 'IWS-INTAKE', '127.0.0.1', String(dicomPort)]);
    const wrongCalled = await run('echoscu', ['-aet', 'ECHOSCU', '-aec', 'SOMEONE', '127.0.0.1', String(dicomPort)]);
    // Assess
    expect(known.code, known.output).toBe(0);
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/Calling AE Title Not Recognized/i);
    expect(wrongCalled.output).toMatch(/Called AE Title Not Recognized/i);
  });

  it('stores a study sent by storescu; it reaches COMPLETE in the team and QIDO finds it', async () => {
    // Prepare
    const node = await createNode('CT scanner', 'STORESCU');
    const client = await createClient(adminToken, 'Viewer');
    const token = await accessToken(client.tokenUrl, client.integration.clientId!, client.clientSecret);
    // Act
    const sent = await run('storescu', ['-aet', 'STORESCU', '-aec', 'IWS-INTAKE', '127.0.0.1', String(dicomPort), CT]);
    const dataset = await completedDatasetOf(node.id, 240_000);
    // Assess
    expect(sent.code, sent.output).toBe(0);
    expect(dataset).toMatchObject({ hospitalId: 'hosp-northside', teamId: TEAM });
    const studies = await json<DicomJson[]>(await dicomweb(token, '/studies?ModalitiesInStudy=CT'));
    expect(studies.length).toBeGreaterThan(0);
    const audit = await json<{ items: { action: string; details: { integrationId?: string; stored?: number } }[] }>(
      await apiFetch(twin.url, adminToken, '/api/audit?limit=100'),
    );
    const association = audit.items.find(
      (e) => e.action === 'DICOM_ASSOCIATION' && e.details.integrationId === node.id,
    );
    expect(association?.details.stored).toBe(1);
  }, 300_000);

  it('stores a study Orthanc sends by C-STORE', async () => {
    // Prepare
    const node = await createNode('Orthanc modality', 'ORTHANCSCU');
    const orthanc = await startOrthanc({
      aeTitle: 'ORTHANCSCU',
      modalities: { twin: ['IWS-INTAKE', '127.0.0.1', dicomPort] },
    });
    try {
      // Each slice of this folder is a study of its own: one of them is sent.
      const { ParentStudy: study } = await orthanc.rest<{ ParentStudy: string }>('/instances', {
        raw: new Uint8Array(readFileSync(join(PET_DIR, '1.dcm'))),
      });
      // Act
      await orthanc.rest('/modalities/twin/store', { body: { Resources: [study], Synchronous: true } });
      const dataset = await completedDatasetOf(node.id, 240_000);
      // Assess
      expect(dataset).toMatchObject({ hospitalId: 'hosp-northside', teamId: TEAM });
      // Orthanc queries it back (QIDO-RS) and retrieves it (WADO-RS) as a DICOMweb client: de-identified copies.
      const viewer = await createClient(adminToken, 'Orthanc viewer');
      const token = await accessToken(viewer.tokenUrl, viewer.integration.clientId!, viewer.clientSecret);
      await orthanc.rest('/dicom-web/servers/twin', {
        method: 'PUT',
        body: { Url: `${endpoints.dicomWebUrl}/`, HttpHeaders: { Authorization: `Bearer ${token}` } },
      });
      const found = await orthanc.rest<DicomJson[]>('/dicom-web/servers/twin/qido', {
        body: { Uri: '/studies', Arguments: { ModalitiesInStudy: 'PT' } },
      });
      expect(found).toHaveLength(1);
      const studyUid = String((found[0]!['0020000D'] as { Value?: unknown }).Value);
      await orthanc.rest('/dicom-web/servers/twin/retrieve', { body: { Resources: [{ Study: studyUid }] } });
      const studies = await orthanc.rest<string[]>('/studies');
      const retrieved = [];
      for (const id of studies) {
        const info = await orthanc.rest<{ MainDicomTags: { StudyInstanceUID: string }; Series: string[] }>(
          `/studies/${id}`,
        );
        if (info.MainDicomTags.StudyInstanceUID === studyUid) retrieved.push(id);
      }
      expect(retrieved).toHaveLength(1);
      const instances = await orthanc.rest<{ ID: string }[]>(`/studies/${retrieved[0]}/instances`);
      expect(instances).toHaveLength(1);
      const tags = await orthanc.rest<Record<string, string>>(`/instances/${instances[0]!.ID}/simplified-tags`);
      expect(tags.PatientIdentityRemoved).toBe('YES');
      const audit = await json<{ items: { action: string; details: { integrationId?: string } }[] }>(
        await apiFetch(twin.url, adminToken, '/api/audit?limit=100'),
      );
      const reads = audit.items.filter((e) => e.details.integrationId === viewer.integration.id).map((e) => e.action);
      expect(reads).toEqual(expect.arrayContaining(['DICOMWEB_SEARCH', 'DICOMWEB_RETRIEVE']));
    } finally {
      await orthanc.stop();
    }
  }, 300_000);

  it('stores nothing of an association cut short', async () => {
    // Prepare
    const node = await createNode('Flaky modality', 'FLAKY');
    // Act: an A-ASSOCIATE-RQ header promising more than is sent, then the connection closes.
    await new Promise<void>((resolve) => {
      const socket = connect(dicomPort, '127.0.0.1', () => {
        socket.end(Buffer.from([0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x01]));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 1500));
    // Assess
    expect(await datasetsOf(node.id)).toEqual([]);
    const echo = await run('echoscu', ['-aet', 'FLAKY', '-aec', 'IWS-INTAKE', '127.0.0.1', String(dicomPort)]);
    expect(echo.code, echo.output).toBe(0);
  });
});

describe('bad input', () => {
  let token: string;
  let otherToken: string;
  let clientId: string;
  beforeAll(async () => {
    const client = await createClient(adminToken, 'Bad input client');
    clientId = client.integration.id;
    token = await accessToken(client.tokenUrl, client.integration.clientId!, client.clientSecret);
    const otherAdmin = await signIn(twin.url, OTHER_ADMIN);
    const other = await createClient(otherAdmin, 'Lakeview PACS', OTHER_TEAM);
    otherToken = await accessToken(other.tokenUrl, other.integration.clientId!, other.clientSecret);
  });

  it('answers a wrong content type with 415 and a body that is not multipart with 400, storing nothing', async () => {
    const wrongType = await stow(token, [readFileSync(CT)], '/studies', 'application/json');
    const notMultipart = await dicomweb(token, '/studies', {
      method: 'POST',
      headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=x' },
      body: 'not a multipart body',
    });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(notMultipart.status).toBe(400);
    expect(await datasetsOf(clientId)).toEqual([]);
    const audit = await json<{ items: { action: string; outcome?: string; details: { integrationId?: string } }[] }>(
      await apiFetch(twin.url, adminToken, '/api/audit?limit=100'),
    );
    const refused = audit.items.filter((e) => e.details.integrationId === clientId && e.action === 'DICOMWEB_STORE');
    expect(refused.map((e) => e.outcome)).toEqual(['FAILURE', 'FAILURE']);
  });

  it('fails a non-DICOM part alone (409 when nothing was stored, 202 beside a good one), with its reason', async () => {
    const junk = new TextEncoder().encode('PatientName=DOE^JOHN, certainly not DICOM');
    const none = await stow(token, [junk]);
    const body = await json<DicomJson>(none);
    expect(none.status).toBe(409);
    expect((body['00081198']?.Value?.[0] as DicomJson)['00081197']).toEqual({ vr: 'US', Value: [0xc000] });
    expect(JSON.stringify(body)).not.toContain('DOE');
    expect(await datasetsOf(clientId)).toEqual([]);
    const some = await stow(token, [junk, readFileSync(CT)]);
    expect(some.status).toBe(202);
    const mixed = await json<DicomJson>(some);
    expect(mixed['00081199']?.Value).toHaveLength(1);
    expect(mixed['00081198']?.Value).toHaveLength(1);
    const wrongStudy = await stow(token, [readFileSync(CT)], '/studies/1.2.3.4');
    expect(wrongStudy.status).toBe(409);
  });

  it("gives a client of another hospital none of this hospital's studies", async () => {
    // A study of ours, processed: the one stored beside the bad part above, once its quiet time has passed.
    const ours = await waitFor(
      async () => {
        const found = await json<DicomJson[]>(await dicomweb(token, '/studies'));
        return found.length > 0 ? found : undefined;
      },
      180_000,
      'a processed study of this hospital',
    );
    const studyUid = String(value(ours[0]!, '0020000D'));
    expect(await json<DicomJson[]>(await dicomweb(otherToken, '/studies'))).toEqual([]);
    expect(await json<DicomJson[]>(await dicomweb(otherToken, `/studies?StudyInstanceUID=${studyUid}`))).toEqual([]);
    expect((await dicomweb(otherToken, `/studies/${studyUid}`)).status).toBe(404);
    expect((await dicomweb(otherToken, `/studies/${studyUid}/metadata`)).status).toBe(404);
    expect((await dicomweb(otherToken, `/studies/${studyUid}/commit`, { method: 'POST' })).status).toBe(404);
  }, 240_000);
});
