import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/db/keys.ts';
import { TTL_ATTRIBUTE } from '#shared/db/table.ts';
import { UPLOAD_FILES_TTL_SECONDS } from '#shared/domain/uploads/ports.ts';
import { createResearchDataset, startHarness, type Harness } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
/** A folder named after a patient, as PACS exports write them. */
const PATH = 'DOE^JANE_19700101/MR_BRAIN/IM0001.dcm';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function itemsHolding(text: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await h.table.doc.send(new ScanCommand({ TableName: h.table.tableName }));
  return Items.filter((item) => JSON.stringify(item).includes(text));
}

async function openSession(): Promise<{ datasetId: string; sessionId: string }> {
  const datasetId = await createResearchDataset(h, MEMBER, 'Paths');
  const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
    as: MEMBER,
    body: { files: [{ path: PATH, sizeBytes: 3 }] },
  });
  expect(session.status).toBe(201);
  return { datasetId, sessionId: session.body.sessionId as string };
}

describe('upload paths in the table', () => {
  it('live only in the file items, which expire with the TTL attribute set when the session opens', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { sessionId } = await openSession();
    const holding = await itemsHolding('DOE^JANE');
    expect(holding.map((item) => item.entity)).toEqual(['uploadFile']);
    const expiry = holding[0]![TTL_ATTRIBUTE] as number;
    expect(expiry).toBeGreaterThanOrEqual(before + UPLOAD_FILES_TTL_SECONDS);
    expect(expiry).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + UPLOAD_FILES_TTL_SECONDS);

    // DynamoDB removes expired items lazily: until it does, an expired item reads as gone.
    await h.table.doc.send(
      new UpdateCommand({
        TableName: h.table.tableName,
        Key: keys.uploadFile('hosp-northside', sessionId, 0),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':past': before - 1 },
      }),
    );
    const session = await h.call('GET', `/api/uploads/${sessionId}`, { as: MEMBER });
    expect(session.status).toBe(200);
    expect(JSON.stringify(session.body)).not.toContain('DOE^JANE');
  });

  it('are deleted once the upload completes, and appear in no audit event', async () => {
    const { sessionId } = await openSession();
    const urls = await h.call('POST', `/api/uploads/${sessionId}/files/0/parts`, {
      as: MEMBER,
      body: { partNumbers: [1] },
    });
    const uploadId = new URL(urls.body.urls[0].url).searchParams.get('uploadId')!;
    const etag = h.objects.uploadPart(uploadId, 1, new Uint8Array([1, 2, 3]));
    const done = await h.call('POST', `/api/uploads/${sessionId}/files/0/complete`, {
      as: MEMBER,
      body: { parts: [{ partNumber: 1, etag }] },
    });
    expect(done.status).toBe(200);
    expect((await h.call('POST', `/api/uploads/${sessionId}/complete`, { as: MEMBER })).status).toBe(200);
    const left = (await itemsHolding('IM0001')).filter((item) => JSON.stringify(item).includes(sessionId));
    expect(left).toEqual([]);
  });
});
