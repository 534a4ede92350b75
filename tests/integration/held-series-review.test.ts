import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { parseMediaType, parseMultipart } from '#shared/domain/intake/multipart.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';
import { createResearchDataset, runPipeline, startHarness, uploadDirect, type Harness } from './datasets-harness.ts';

/**
 * Reviewing a series held for burned-in text (docs/domain.md#held-series, docs/domain.md#redaction), from the outside:
 * a study with a screen capture declaring burned-in annotation is uploaded and processed; its frames are shown to a
 * lead and an admin only; "Redact and release" blanks a rectangle in every stored instance, releases the series and
 * processes the dataset again; DICOMweb then serves the redacted instances.
 */
const MEMBER = 'member@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const ADMIN = 'admin@northside.demo.local';
const OTHER_LEAD = 'lead@lakeview.demo.local';
const TEAM = 'team-northside-neuroradiology';
const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';
const HOSPITAL = 'hosp-northside';

type Reply = { statusCode: number; body: string; headers?: Record<string, unknown> };
type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

let h: Harness;
let clientId: string;

async function dicomweb(path: string): Promise<Reply> {
  const matched = matchRoute('GET', path);
  if (!matched) throw new Error(`No route for GET ${path}`);
  const event = {
    httpMethod: 'GET',
    path,
    resource: matched.route.path,
    pathParameters: matched.pathParameters,
    queryStringParameters: null,
    headers: { host: 'harness.test' },
    multiValueHeaders: {},
    multiValueQueryStringParameters: null,
    stageVariables: null,
    isBase64Encoded: false,
    body: null,
    requestContext: {
      authorizer: { claims: { token_use: 'access', client_id: clientId, scope: 'imaging-dicomweb/read' } },
    },
  } as unknown as APIGatewayProxyEvent;
  const { handler } = await import('#functions/dicomweb/handler.ts');
  return (await handler(event, {} as Context)) as Reply;
}

/** The 16-bit samples of an instance's Pixel Data. */
function samples(bytes: Uint8Array): number[] {
  const parsed = parseDicom(bytes);
  const element = parsed.dataSet.elements.x7fe00010!;
  const view = new DataView(parsed.bytes.buffer, parsed.bytes.byteOffset + element.dataOffset, element.length);
  return Array.from({ length: element.length / 2 }, (_, i) => view.getUint16(i * 2, true));
}

beforeAll(async () => {
  h = await startHarness();
  const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
    as: ADMIN,
    body: { name: 'Review PACS', teamId: TEAM, quietSeconds: 300 },
  });
  expect(created.status).toBe(201);
  clientId = created.body.integration.clientId as string;
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe('reviewing and redacting a held series', () => {
  it('shows its frames to a lead or admin only, and redact-and-release blanks every instance before DICOMweb serves it', async () => {
    // Arrange: an MR series and a two-frame screen capture declaring burned-in annotation, processed
    const files = buildStudy([
      { seriesNumber: 1, slices: 4 },
      { seriesNumber: 2, slices: 2, sopClassUID: SECONDARY_CAPTURE, burnedInAnnotation: 'YES' },
    ]).map((f) => ({ path: `study/${f.name}`, bytes: f.bytes }));
    const datasetId = await createResearchDataset(h, MEMBER, 'Screen capture review');
    expect(await runPipeline(await uploadDirect(h, MEMBER, datasetId, files))).toEqual({ ok: true });
    const listed = await h.call('GET', `/api/datasets/${datasetId}/series`, { as: LEAD });
    const held = (listed.body.items as { id: string; burnedInText?: { releasedAt?: string } }[]).find(
      (s) => s.burnedInText,
    )!;
    expect(held.burnedInText!.releasedAt).toBeUndefined();
    const base = `/api/datasets/${datasetId}/series/${held.id}`;

    // Act: preview as each person
    const asLead = await h.call('GET', `${base}/preview`, { as: LEAD, query: { frame: '1' } });
    const asAdmin = await h.call('GET', `${base}/preview`, { as: ADMIN });
    const asMember = await h.call('GET', `${base}/preview`, { as: MEMBER });
    const asOtherHospital = await h.call('GET', `${base}/preview`, { as: OTHER_LEAD });

    // Assert
    expect(asLead.status).toBe(200);
    expect(asLead.body).toMatchObject({ frame: 1, frameCount: 2, width: 8, height: 8 });
    expect(asLead.body.image).toMatch(/^data:image\/png;base64,/);
    expect(asAdmin.status).toBe(200);
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.code).toBe('ACCESS_DENIED');
    expect(asOtherHospital.status).toBe(404);
    // A held series is not served over DICOMweb
    const before = JSON.parse((await dicomweb('/dicomweb/series')).body) as DicomJson[];
    expect(before).toHaveLength(1);
    const study = String(before[0]!['0020000D']!.Value![0]);

    // Act: a lead redacts the top two rows and releases
    const rectangles = [{ x: 0, y: 0, width: 8, height: 2 }];
    const refused = await h.call('POST', `${base}/redact`, { as: MEMBER, body: { rectangles } });
    const invalid = await h.call('POST', `${base}/redact`, { as: LEAD, body: { rectangles: [{ x: -1, y: 0 }] } });
    const redacted = await h.call('POST', `${base}/redact`, { as: LEAD, body: { rectangles } });

    // Assert: released with its rectangles, audited, processed again
    expect(refused.status).toBe(403);
    expect(invalid.status).toBe(400);
    expect(redacted.status).toBe(200);
    expect(redacted.body.burnedInText).toMatchObject({ redactions: rectangles, releasedAt: expect.any(String) });
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: LEAD });
    const actions = (history.body.items as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['SERIES_PREVIEWED', 'SERIES_REDACTED']));
    const stored = await h.objects.list('studies', studyKeys.series(HOSPITAL, datasetId, held.id));
    expect(stored).toHaveLength(2);
    for (const { key } of stored) {
      const values = samples(await h.objects.get('studies', key));
      expect(values.slice(0, 16).every((v) => v === 0)).toBe(true);
      expect(values.slice(16)).toEqual(Array.from({ length: 48 }, (_, i) => i + 16));
    }
    expect(await runPipeline(h.started.filter((s) => s.datasetId === datasetId).at(-1)!)).toEqual({ ok: true });
    const assets = await h.call('GET', `/api/datasets/${datasetId}/assets`, { as: LEAD });
    expect((assets.body.items as { seriesId?: string }[]).some((a) => a.seriesId === held.id)).toBe(true);
    // No preview once released
    expect((await h.call('GET', `${base}/preview`, { as: LEAD })).body.error.code).toBe('SERIES_NOT_HELD');

    // Assert: DICOMweb lists and serves the redacted instances
    const series = JSON.parse((await dicomweb(`/dicomweb/studies/${study}/series`)).body) as DicomJson[];
    expect(series.map((s) => s['0020000E']!.Value![0])).toContain(held.id);
    const retrieved = await dicomweb(`/dicomweb/studies/${study}/series/${held.id}`);
    expect(retrieved.statusCode).toBe(200);
    const type = parseMediaType(String(retrieved.headers?.['Content-Type']));
    const parts = parseMultipart(new Uint8Array(Buffer.from(retrieved.body, 'base64')), type.params.boundary!);
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      expect(
        samples(part.bytes)
          .slice(0, 16)
          .every((v) => v === 0),
      ).toBe(true);
      expect(parseDicom(part.bytes).dataSet.string('x00280301')).toBe('NO');
    }
  }, 180_000);
});
