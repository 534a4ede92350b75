import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { DICOMWEB_SCOPES } from '#shared/vocabulary/integrations.ts';
import { buildStudy, withElements } from '#tests/helpers/dicom-builder.ts';
import { runPipeline, startHarness, type Harness } from './datasets-harness.ts';

/**
 * A DICOMweb client has the scopes the admin chose and, bound to a team, reads and writes that team only
 * (docs/dicom-intake.md#dicomweb-clients, #team-bound-clients). Through HTTP in process: the integrations routes make
 * the clients, and the DICOMweb handler gets the requests as API Gateway hands them over once the Cognito authorizer
 * verified an access token (which lets through any DICOMweb scope; the route's own is the handler's to check).
 */
const ADMIN = 'admin@northside.demo.local';
const NEURO = 'team-northside-neuroradiology';
const STROKE = 'team-northside-stroke';
const BOTH = `${DICOMWEB_SCOPES.read} ${DICOMWEB_SCOPES.write}`;
const TAGS = { ReferencedSOPSequence: '00081199', RetrieveURL: '00081190', StudyInstanceUID: '0020000D' } as const;

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;
type Reply = { statusCode: number; body: string };

let h: Harness;

async function createClient(body: Record<string, unknown>) {
  const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
    as: ADMIN,
    body: { quietSeconds: 300, ...body },
  });
  return created;
}

async function clientOf(body: Record<string, unknown>): Promise<string> {
  const created = await createClient(body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.integration.clientId as string;
}

/** A DICOMweb request carrying an access token of `clientId` with the scopes `scope` (space-separated). */
async function dicomweb(
  clientId: string,
  scope: string,
  method: string,
  path: string,
  body?: { bytes: Uint8Array; contentType: string },
): Promise<Reply> {
  const matched = matchRoute(method, path);
  if (!matched) throw new Error(`No route for ${method} ${path}`);
  const event = {
    httpMethod: method,
    path,
    resource: matched.route.path,
    pathParameters: matched.pathParameters,
    queryStringParameters: null,
    headers: { host: 'harness.test', ...(body ? { 'content-type': body.contentType } : {}) },
    multiValueHeaders: {},
    multiValueQueryStringParameters: null,
    stageVariables: null,
    isBase64Encoded: body !== undefined,
    body: body ? Buffer.from(body.bytes).toString('base64') : null,
    requestContext: { authorizer: { claims: { token_use: 'access', client_id: clientId, scope } } },
  } as unknown as APIGatewayProxyEvent;
  const { handler } = await import('#functions/dicomweb/handler.ts');
  return (await handler(event, {} as Context)) as Reply;
}

function stowBody(studyUID: string, seriesNumber: number) {
  // buildStudy gives every study one StudyInstanceUID; each test study gets its own, and its series number its UIDs
  const files = buildStudy([{ seriesNumber, slices: 2 }]).map((f) =>
    withElements(f.bytes, [{ tag: TAGS.StudyInstanceUID, vr: 'UI', value: studyUID }]),
  );
  const boundary = `reach-${seriesNumber}`;
  return {
    bytes: buildMultipart(
      files.map((bytes) => ({ contentType: 'application/dicom', bytes })),
      boundary,
    ),
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  };
}

/** Stores a study through `clientId`, commits it and runs the pipeline; answers its dataset and Retrieve URL paths. */
async function storeAndProcess(clientId: string, studyUID: string, seriesNumber: number) {
  const stored = await dicomweb(clientId, BOTH, 'POST', '/dicomweb/studies', stowBody(studyUID, seriesNumber));
  expect(stored.statusCode, stored.body).toBe(200);
  const urls = ((JSON.parse(stored.body) as DicomJson)[TAGS.ReferencedSOPSequence]!.Value as DicomJson[]).map(
    (item) => new URL(String(item[TAGS.RetrieveURL]!.Value![0])).pathname,
  );
  expect((await dicomweb(clientId, BOTH, 'POST', `/dicomweb/studies/${studyUID}/commit`)).statusCode).toBeLessThan(300);
  const run = h.started.at(-1)!;
  expect(await runPipeline(run)).toEqual({ ok: true });
  const study = /^\/dicomweb\/studies\/([^/]+)\//.exec(urls[0]!)![1]!;
  return { datasetId: run.datasetId, urls, study };
}

const studiesListed = (reply: Reply) =>
  (JSON.parse(reply.body) as DicomJson[]).map((d) => String(d[TAGS.StudyInstanceUID]!.Value![0]));

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('the scopes an admin chooses for a DICOMweb client', () => {
  it('are the app client’s and the integration’s, and a route without its scope answers 403 INSUFFICIENT_SCOPE', async () => {
    // Arrange: a read-only and a write-only client
    const reader = await createClient({ name: 'Viewer', teamId: NEURO, scopes: ['read'] });
    const writer = await createClient({ name: 'Modality', teamId: NEURO, scopes: ['write'] });
    expect(reader.status).toBe(201);
    expect(writer.status).toBe(201);
    expect(reader.body.integration.scopes).toEqual([DICOMWEB_SCOPES.read]);
    expect(writer.body.integration.scopes).toEqual([DICOMWEB_SCOPES.write]);

    // Act: each calls the other's routes, with the token its app client would get and with one claiming both scopes
    const readerStow = await dicomweb(
      reader.body.integration.clientId,
      DICOMWEB_SCOPES.read,
      'POST',
      '/dicomweb/studies',
      stowBody('1.2.826.0.1.3680043.9.9999.41', 1),
    );
    const readerStowWide = await dicomweb(
      reader.body.integration.clientId,
      BOTH,
      'POST',
      '/dicomweb/studies',
      stowBody('1.2.826.0.1.3680043.9.9999.41', 1),
    );
    const writerQido = await dicomweb(writer.body.integration.clientId, BOTH, 'GET', '/dicomweb/studies');
    const writerCommit = await dicomweb(
      writer.body.integration.clientId,
      DICOMWEB_SCOPES.read,
      'POST',
      '/dicomweb/studies/1.2.826.0.1.3680043.9.9999.41/commit',
    );

    // Assess: 403 from the catalogue, whatever the token claims beyond the stored integration; nothing was stored
    expect(readerStow.statusCode).toBe(403);
    expect(JSON.parse(readerStow.body).error.code).toBe('INSUFFICIENT_SCOPE');
    expect(JSON.parse(readerStow.body).error.message).toBe('This client is not allowed to write.');
    expect(readerStowWide.statusCode).toBe(403);
    expect(writerQido.statusCode).toBe(403);
    expect(JSON.parse(writerQido.body).error).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: 'This client is not allowed to read.',
    });
    expect(writerCommit.statusCode).toBe(403);
    expect(h.started).toHaveLength(0);
  });

  it('refuses none, and a writer without a team, at creation', async () => {
    expect((await createClient({ name: 'Nothing', teamId: NEURO, scopes: [] })).status).toBe(400);
    expect((await createClient({ name: 'Everywhere', scopes: ['read', 'write'] })).status).toBe(400);
    expect((await createClient({ name: 'Elsewhere', teamId: 'team-southside-nope', scopes: ['read'] })).status).toBe(
      400,
    );
  });
});

describe('a DICOMweb client bound to a team', () => {
  it('stores into its team, and reads only its team’s studies; an unbound reader reads the hospital', async () => {
    // Arrange: one client per team, each storing a study that the pipeline then de-identifies
    const neuroClient = await clientOf({ name: 'Neuro PACS', teamId: NEURO });
    const strokeClient = await clientOf({ name: 'Stroke PACS', teamId: STROKE });
    const hospitalReader = await clientOf({ name: 'Research archive', scopes: ['read'] });
    const neuro = await storeAndProcess(neuroClient, '1.2.826.0.1.3680043.9.9999.42', 1);
    const stroke = await storeAndProcess(strokeClient, '1.2.826.0.1.3680043.9.9999.43', 2);

    // Act
    const neuroDataset = await h.call('GET', `/api/datasets/${neuro.datasetId}`, { as: ADMIN });
    const strokeDataset = await h.call('GET', `/api/datasets/${stroke.datasetId}`, { as: ADMIN });
    const neuroQido = await dicomweb(neuroClient, BOTH, 'GET', '/dicomweb/studies');
    const hospitalQido = await dicomweb(hospitalReader, DICOMWEB_SCOPES.read, 'GET', '/dicomweb/studies');

    // Assess: STOW filed each study into its client's team; QIDO and WADO see only the client's team
    expect(neuroDataset.body.teamId).toBe(NEURO);
    expect(strokeDataset.body.teamId).toBe(STROKE);
    expect(neuroQido.statusCode).toBe(200);
    expect(studiesListed(neuroQido)).toEqual([neuro.study]);
    expect(studiesListed(hospitalQido).sort()).toEqual([neuro.study, stroke.study].sort());
    expect((await dicomweb(neuroClient, BOTH, 'GET', neuro.urls[0]!)).statusCode).toBe(200);
    expect((await dicomweb(neuroClient, BOTH, 'GET', stroke.urls[0]!)).statusCode).toBe(404);
    expect((await dicomweb(neuroClient, BOTH, 'GET', `${stroke.urls[0]!}/metadata`)).statusCode).toBe(404);
    expect((await dicomweb(neuroClient, BOTH, 'GET', `/dicomweb/studies/${stroke.study}`)).statusCode).toBe(404);
    expect((await dicomweb(hospitalReader, DICOMWEB_SCOPES.read, 'GET', stroke.urls[0]!)).statusCode).toBe(200);

    // Under the individual data policy, a team-bound client reads only the studies it stored itself
    const team = (await h.deps.directory.getTeam(h.user(ADMIN).hospitalId, STROKE))!;
    await h.deps.directory.putTeam({ ...team, dataPolicy: 'individual' });
    const strokeViewer = await clientOf({ name: 'Stroke viewer', teamId: STROKE, scopes: ['read'] });
    expect(studiesListed(await dicomweb(strokeClient, BOTH, 'GET', '/dicomweb/studies'))).toEqual([stroke.study]);
    expect(studiesListed(await dicomweb(strokeViewer, DICOMWEB_SCOPES.read, 'GET', '/dicomweb/studies'))).toEqual([]);
    expect((await dicomweb(strokeViewer, DICOMWEB_SCOPES.read, 'GET', stroke.urls[0]!)).statusCode).toBe(404);
    await h.deps.directory.putTeam(team);
  }, 120_000);
});
