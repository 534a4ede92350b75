import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { packArchive } from '#tests/helpers/study-archive.ts';
import { newUploadSalt, uploadFileKey } from '#shared/client/file-key.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { createResearchDataset } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
/** A folder named after a patient, as PACS exports write them. */
const PATH = 'DOE^JANE_19700101/MR_BRAIN/IM0001.dcm';
/** Every part of the path that names the patient or the file. */
const NAMES = ['DOE^JANE', '19700101', 'MR_BRAIN', 'IM0001', '.dcm'];

const h = useHarness();

async function itemsHolding(text: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await h.table.doc.send(new ScanCommand({ TableName: h.table.tableName }));
  return Items.filter((item) => JSON.stringify(item).includes(text));
}

async function itemsNamingTheFile(): Promise<Record<string, unknown>[]> {
  const found = await Promise.all(NAMES.map(itemsHolding));
  return found.flat();
}

/** Opens a session as the site and `iws upload` do: the file is known by its key, computed here from a salt kept here. */
async function openSession(): Promise<{ datasetId: string; sessionId: string; fileKey: string }> {
  const datasetId = await createResearchDataset(h, MEMBER, 'Paths');
  const fileKey = await uploadFileKey(newUploadSalt(), PATH, 3);
  const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
    as: MEMBER,
    body: { files: [{ fileKey, sizeBytes: 3 }] },
  });
  expect(session.status).toBe(201);
  return { datasetId, sessionId: session.body.sessionId as string, fileKey };
}

describe('upload paths', () => {
  it('never reach the table: a session knows its files by key, in a manifest object of the uploads bucket', async () => {
    const { datasetId, sessionId, fileKey } = await openSession();
    expect(await itemsNamingTheFile()).toEqual([]);
    // The table holds one session item whatever the file count, and no key of a file.
    expect(await itemsHolding(fileKey)).toEqual([]);
    const manifest = new TextDecoder().decode(
      await h.objects.get('uploads', uploadKeys.manifest('hosp-northside', datasetId, sessionId)),
    );
    expect(JSON.parse(manifest)).toEqual({ files: [{ fileKey, sizeBytes: 3 }] });
    for (const name of NAMES) expect(manifest).not.toContain(name);
    const resumed = await h.call('GET', `/api/uploads/${sessionId}`, { as: MEMBER });
    expect(resumed.body.files).toMatchObject([{ fileIndex: 0, fileKey, sizeBytes: 3 }]);
  });

  it('are refused with VALIDATION_FAILED, in place of a key or beside one, and nothing is stored', async () => {
    const datasetId = await createResearchDataset(h, MEMBER, 'Paths refused');
    const key = await uploadFileKey('salt', PATH, 3);
    const smuggled = [
      { fileKey: PATH, sizeBytes: 3 },
      { fileKey: `${PATH}${'0'.repeat(64)}`.slice(0, 64), sizeBytes: 3 },
      { fileKey: key.toUpperCase(), sizeBytes: 3 },
      { fileKey: key, path: PATH, sizeBytes: 3 },
      { path: PATH, sizeBytes: 3 },
    ];
    for (const file of smuggled) {
      const refused = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
        as: MEMBER,
        body: { files: [file] },
      });
      expect([refused.status, refused.body.error?.code], JSON.stringify(file)).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await itemsNamingTheFile()).toEqual([]);
    expect((await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER })).body.status).toBe('CREATED');
  });

  it('leave no item naming a file once the upload completes, and appear in no audit event', async () => {
    const { sessionId, fileKey } = await openSession();
    const urls = await h.call('POST', `/api/uploads/${sessionId}/parts`, {
      as: MEMBER,
      body: { partNumbers: [1] },
    });
    const uploadId = new URL(urls.body.urls[0].url).searchParams.get('uploadId')!;
    h.objects.uploadPart(uploadId, 1, packArchive([new Uint8Array([1, 2, 3])]));
    expect((await h.call('POST', `/api/uploads/${sessionId}/complete`, { as: MEMBER })).status).toBe(200);
    expect(await itemsHolding(fileKey)).toEqual([]);
    expect(await itemsNamingTheFile()).toEqual([]);
  });
});
