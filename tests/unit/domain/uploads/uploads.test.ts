import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { deleteDataset } from '#shared/domain/datasets/delete-dataset.ts';
import { completeUpload } from '#shared/domain/uploads/complete-upload.ts';
import { getUploadSession } from '#shared/domain/uploads/get-upload-session.ts';
import { openUploadSession } from '#shared/domain/uploads/open-upload-session.ts';
import { presignParts } from '#shared/domain/uploads/presign-parts.ts';
import { uploadDataset } from '#shared/client/upload-client.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import { CreateUploadSessionRequestSchema, MAX_ENHANCED_FILES, MAX_FILE_BYTES } from '#shared/schemas/api/uploads.ts';
import { MIN_ARCHIVE_PART_BYTES } from '#shared/domain/uploads/study-archive.ts';
import { archiveParts, packArchive } from '#tests/helpers/study-archive.ts';
import { uploadFileKey } from '#shared/client/file-key.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { caller, NEW_DATASET, ports, runRetention } from '#tests/unit/domain/fakes.ts';

const member = caller('TEAM_MEMBER');
const BIG = MIN_ARCHIVE_PART_BYTES + 1;

async function opened(sizes = [10, BIG]) {
  const p = ports();
  const d = await createDataset(NEW_DATASET, member, p);
  const session = await openUploadSession(
    d.id,
    sizes.map((sizeBytes, i) => ({ fileKey: fileKeyOf(`f${i}.dcm`), sizeBytes })),
    member,
    p,
  );
  const record = p.uploads.sessions.get(session.sessionId)!;
  return { p, d, session, record };
}

/** Stores the archive of `files` as the session's parts, as the client's PUTs would. */
function storeParts(
  p: ReturnType<typeof ports>,
  record: { multipartUploadId: string; partBytes: number },
  files: Uint8Array[],
) {
  return archiveParts(packArchive(files), record.partBytes).map((bytes, i) =>
    p.objects.uploadPart(record.multipartUploadId, i + 1, bytes),
  );
}

describe('upload sessions', () => {
  it('opens one multipart upload for the whole study, stores the manifest and moves the dataset to UPLOADING', async () => {
    const { p, d, session, record } = await opened();
    const archiveBytes = 512 + 512 + 512 + Math.ceil(BIG / 512) * 512 + 1024;
    expect(session).toMatchObject({
      archiveBytes,
      partBytes: MIN_ARCHIVE_PART_BYTES,
      partCount: 2,
      completedParts: [],
    });
    expect(session.files).toEqual([
      { fileIndex: 0, fileKey: fileKeyOf('f0.dcm'), sizeBytes: 10 },
      { fileIndex: 1, fileKey: fileKeyOf('f1.dcm'), sizeBytes: BIG },
    ]);
    expect((await p.datasets.get('h1', d.id))!.status).toBe('UPLOADING');
    expect(record.archiveKey).toBe(`h1/${d.id}/raw/archive/${session.sessionId}.tar`);
    expect(p.objects.objects.has(`uploads/h1/${d.id}/raw/archive/${session.sessionId}.json`)).toBe(true);
  });

  it('signs a batch of parts in one call, and only parts the archive has', async () => {
    const { p, session } = await opened();
    const { urls } = await presignParts(session.sessionId, [1, 2, 2], member, p);
    expect(urls.map((u) => u.partNumber)).toEqual([1, 2]);
    expect(new Set(urls.map((u) => new URL(u.url).searchParams.get('uploadId'))).size).toBe(1);
    await expect(presignParts(session.sessionId, [3], member, p)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('resumes: opening again returns the same session with the parts already stored', async () => {
    const { p, d, session, record } = await opened();
    p.objects.uploadPart(record.multipartUploadId, 2, new Uint8Array(8));
    const again = await openUploadSession(d.id, [{ fileKey: fileKeyOf('f0.dcm'), sizeBytes: 10 }], member, p);
    expect(again.sessionId).toBe(session.sessionId);
    expect(again.completedParts).toEqual([2]);
    expect(again.files).toHaveLength(2);
    expect((await getUploadSession(session.sessionId, member, p)).completedParts).toEqual([2]);
  });

  it('enforces the file-count and size limits with the catalogue messages', async () => {
    const p = ports();
    const d = await createDataset(NEW_DATASET, member, p);
    const many = Array.from({ length: MAX_ENHANCED_FILES + 1 }, (_, i) => ({
      fileKey: fileKeyOf(`${i}`),
      sizeBytes: 1,
    }));
    await expect(openUploadSession(d.id, many, member, p)).rejects.toMatchObject({
      code: 'TOO_MANY_FILES',
      values: { n: MAX_ENHANCED_FILES },
    });
    await expect(
      openUploadSession(d.id, [{ fileKey: fileKeyOf('big'), sizeBytes: MAX_FILE_BYTES + 1 }], member, p),
    ).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('completes the archive once every part is stored, then starts the pipeline', async () => {
    const { p, d, session, record } = await opened([10]);
    await expect(completeUpload(session.sessionId, member, p)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    storeParts(p, record, [new Uint8Array(10).fill(7)]);
    const dataset = await completeUpload(session.sessionId, member, p);
    expect(dataset.status).toBe('UPLOADING');
    expect(p.pipeline.started).toHaveLength(1);
    expect(await p.objects.get('uploads', record.archiveKey)).toEqual(packArchive([new Uint8Array(10).fill(7)]));
    expect(p.objects.objects.has(`uploads/h1/${d.id}/raw/0`)).toBe(false);
  });

  it('refuses an archive whose stored parts do not match its declared layout (truncated, oversized, re-cut)', async () => {
    const { p, session, record } = await opened([10, BIG]);
    const archive = packArchive([new Uint8Array(10), new Uint8Array(BIG)]);
    const id = record.multipartUploadId;
    p.objects.uploadPart(id, 1, archive.subarray(0, record.partBytes));
    p.objects.uploadPart(id, 2, archive.subarray(record.partBytes, archive.length - 1));
    await expect(completeUpload(session.sessionId, member, p)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    p.objects.uploadPart(id, 2, new Uint8Array(archive.length - record.partBytes + 1));
    await expect(completeUpload(session.sessionId, member, p)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    // A short first part and a long last part add up to the archive's size but break the part layout.
    p.objects.uploadPart(id, 1, archive.subarray(0, 1));
    p.objects.uploadPart(id, 2, archive.subarray(1));
    await expect(completeUpload(session.sessionId, member, p)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    expect(p.pipeline.started).toHaveLength(0);
    storeParts(p, record, [new Uint8Array(10), new Uint8Array(BIG)]);
    expect((await completeUpload(session.sessionId, member, p)).status).toBe('UPLOADING');
  });

  it('completes the archive with the ETags the store listed (whose sizes it checked)', async () => {
    const { p, session, record } = await opened([10]);
    const [listed] = storeParts(p, record, [new Uint8Array(10).fill(3)]);
    const sent: unknown[] = [];
    const complete = p.objects.completeMultipart.bind(p.objects);
    p.objects.completeMultipart = async (bucket, key, id, parts) => {
      sent.push(parts);
      return complete(bucket, key, id, parts);
    };
    await completeUpload(session.sessionId, member, p);
    expect(sent).toEqual([[{ partNumber: 1, etag: listed }]]);
  });

  it('lets only the owner, their lead or an admin work on an upload session, not a teammate who can see the dataset', async () => {
    const { p, session } = await opened([10]);
    const teammate = caller('TEAM_MEMBER', { userId: 'user-teammate' });
    await expect(getUploadSession(session.sessionId, teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(presignParts(session.sessionId, [1], teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(completeUpload(session.sessionId, teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect((await presignParts(session.sessionId, [1], caller('TEAM_LEAD'), p)).urls).toHaveLength(1);
    expect((await getUploadSession(session.sessionId, caller('HOSPITAL_ADMIN'), p)).files).toHaveLength(1);
  });

  it("makes a file's key as the hex SHA-256 of the salt, path and size, each on its own line", async () => {
    const expected = createHash('sha256').update('salt\nstudy/T1 MPRAGE/IM0001.dcm\n1').digest('hex');
    expect(await uploadFileKey('salt', 'study/T1 MPRAGE/IM0001.dcm', 1)).toBe(expected);
  });

  it('accepts only file keys (64 lowercase hex characters), never a path or file name, and no other field', async () => {
    const accepts = (file: Record<string, unknown>) =>
      CreateUploadSessionRequestSchema.safeParse({ files: [{ sizeBytes: 1, ...file }] }).success;
    const key = await uploadFileKey('salt', 'study/T1 MPRAGE/IM0001.dcm', 1);
    expect(accepts({ fileKey: key })).toBe(true);
    for (const fileKey of [
      'IM0001',
      'study/T1 MPRAGE/IM0001.dcm',
      `DOE^JANE/${key}`.slice(0, 64),
      key.toUpperCase(),
      key.slice(1),
      `${key}0`,
      '',
    ])
      expect(accepts({ fileKey }), fileKey).toBe(false);
    expect(accepts({ path: 'IM0001' })).toBe(false);
    expect(accepts({ fileKey: key, path: 'IM0001' })).toBe(false);
    expect(accepts({ fileKey: key, fileName: 'IM0001' })).toBe(false);
  });

  it('hides a session of another team as UPLOAD_NOT_FOUND', async () => {
    const { p, session } = await opened([10]);
    await expect(getUploadSession(session.sessionId, caller('TEAM_LEAD', { teamId: 't9' }), p)).rejects.toMatchObject({
      code: 'UPLOAD_NOT_FOUND',
    });
  });
});

describe('completing an upload twice', () => {
  it('starts the same run again when the first answer was lost, and nothing once the session is closed', async () => {
    const { p, session, record } = await opened([10]);
    storeParts(p, record, [new Uint8Array(10)]);
    const failingOnce = {
      ...p,
      uploads: {
        ...p.uploads,
        setSessionStatus: async () => {
          throw new Error('lost');
        },
      },
    };
    await expect(completeUpload(session.sessionId, member, failingOnce)).rejects.toThrow('lost');
    await completeUpload(session.sessionId, member, p);
    await completeUpload(session.sessionId, member, p);
    expect(p.pipeline.started).toHaveLength(2);
    expect(new Set(p.pipeline.started.map((s) => (s as { runId: string }).runId)).size).toBe(1);
  });

  it('accepts only PS3.5 UIDs (digits and dots, no leading zeros, at most 64 characters) for the UIDs of a file', () => {
    for (const uid of ['1.2.840.10008.5.1.4.1.1.4', '2.25.0', '0', '1.0.3', `1.${'9'.repeat(62)}`])
      expect(isDicomUid(uid), uid).toBe(true);
    for (const uid of [
      '',
      '1.02.3',
      '01.2',
      '1..2',
      '.1.2',
      '1.2.',
      '1.2.3a',
      '1.2/../3',
      'H#h1',
      '1.2 3',
      `1.${'9'.repeat(63)}`,
    ])
      expect(isDicomUid(uid), uid).toBe(false);
    const withUid = (key: string, uid: string) =>
      CreateUploadSessionRequestSchema.safeParse({ files: [{ fileKey: fileKeyOf('a.dcm'), sizeBytes: 1, [key]: uid }] })
        .success;
    for (const key of ['studyInstanceUID', 'seriesInstanceUID', 'sopInstanceUID']) {
      expect(withUid(key, '1.2.3.4'), key).toBe(true);
      expect(withUid(key, '1.2.3/../../h2'), key).toBe(false);
      expect(withUid(key, '1.002.3'), key).toBe(false);
      expect(withUid(key, `1.${'2'.repeat(63)}`), key).toBe(false);
    }
  });

  it('the upload client leaves a malformed series UID out of the session request instead of failing the upload', async () => {
    const bodies: unknown[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ error: { code: 'INVALID_STATE', message: 'stop here' } }), { status: 409 });
    }) as unknown as typeof globalThis.fetch;
    const source = (seriesInstanceUID: string) => ({
      path: 'a.dcm',
      sizeBytes: 1,
      seriesInstanceUID,
      read: async () => new Uint8Array(1),
    });
    await expect(
      uploadDataset({
        api: { baseUrl: '', getToken: async () => 't', fetch },
        datasetId: 'd1',
        files: [source('1.2.3'), source('1.02.3')],
        salt: 'salt',
        maxAttempts: 1,
      }),
    ).rejects.toThrow('stop here');
    const key = await uploadFileKey('salt', 'a.dcm', 1);
    expect(bodies).toEqual([
      {
        files: [
          { fileKey: key, sizeBytes: 1, seriesInstanceUID: '1.2.3' },
          { fileKey: key, sizeBytes: 1 },
        ],
      },
    ]);
  });
});

describe('the upload client over the upload domain', () => {
  /** fetch answered by the domain functions and the memory store, as the API and S3 would; `dropPart` PUTs fail. */
  function apiOver(p: ReturnType<typeof ports>, datasetId: string, dropPart: { n?: number }) {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
    return (async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://api.test');
      if (init.method === 'PUT') {
        const partNumber = Number(url.searchParams.get('partNumber'));
        if (partNumber === dropPart.n) throw new TypeError('connection reset');
        const body = new Uint8Array(await new Response(init.body).arrayBuffer());
        p.objects.uploadPart(url.searchParams.get('uploadId')!, partNumber, body);
        return new Response(null, { status: 200, headers: { etag: `"${partNumber}"` } });
      }
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      if (url.pathname === `/api/datasets/${datasetId}/upload/session`)
        return json(201, await openUploadSession(datasetId, body.files, member, p));
      const [, sessionId, action] = /^\/api\/uploads\/([^/]+)\/(parts|complete)$/.exec(url.pathname)!;
      if (action === 'parts') return json(200, await presignParts(sessionId!, body.partNumbers, member, p));
      return json(200, await completeUpload(sessionId!, member, p));
    }) as unknown as typeof globalThis.fetch;
  }

  it('sends the study as archive parts, follows each file from the parts done, and resumes from the stored parts', async () => {
    const p = ports();
    const d = await createDataset(NEW_DATASET, member, p);
    const contents = [new Uint8Array(BIG).fill(1), new Uint8Array(10).fill(2), new Uint8Array(20).fill(3)];
    const files = contents.map((bytes, i) => ({
      path: `f${i}`,
      sizeBytes: bytes.length,
      read: async (start: number, end: number) => bytes.slice(start, end),
    }));
    const drop = { n: 2 as number | undefined };
    const options = { datasetId: d.id, files, salt: 'salt', maxAttempts: 2, retryDelayMs: 1 };

    // The second part's connection drops: the first is stored, the upload stops.
    const first = new Map<number, string>();
    await expect(
      uploadDataset({
        ...options,
        api: { baseUrl: '', getToken: async () => 't', fetch: apiOver(p, d.id, drop) },
        onFileProgress: (f) => first.set(f.fileIndex, f.status),
      }),
    ).rejects.toThrow('Part 2 of 2 could not be uploaded (network error).');
    // The first part holds most of the first file only: no file is complete yet.
    expect([...first.values()]).not.toContain('COMPLETE');

    // Resumed: only the second part is sent, and every file completes with its bytes counted once.
    drop.n = undefined;
    const progress: Record<number, { uploadedBytes: number; status: string }> = {};
    const result = await uploadDataset({
      ...options,
      api: { baseUrl: '', getToken: async () => 't', fetch: apiOver(p, d.id, drop) },
      onFileProgress: (f) => (progress[f.fileIndex] = f),
    });
    expect(result.progress).toMatchObject({
      partsSkipped: 1,
      partsSent: 1,
      filesComplete: 3,
      uploadedBytes: BIG + 30,
      totalBytes: BIG + 30,
    });
    expect(Object.values(progress).map((f) => [f.uploadedBytes, f.status])).toEqual([
      [BIG, 'COMPLETE'],
      [10, 'COMPLETE'],
      [20, 'COMPLETE'],
    ]);
    const record = [...p.uploads.sessions.values()][0]!;
    const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(digest(await p.objects.get('uploads', record.archiveKey))).toBe(digest(packArchive(contents)));
    expect(p.pipeline.started).toHaveLength(1);
  });

  it('aborts the open archive upload when its deleted dataset is purged', async () => {
    const { p, d, record } = await opened([10]);
    const aborted: string[] = [];
    const abort = p.objects.abortMultipart.bind(p.objects);
    p.objects.abortMultipart = async (bucket, key, id) => {
      aborted.push(`${bucket}/${key}/${id}`);
      return abort(bucket, key, id);
    };
    await deleteDataset(d.id, {}, caller('TEAM_LEAD'), p);
    expect(aborted).toEqual([]);
    expect((await runRetention(p, '2099-01-01T00:00:00.000Z')).purged).toEqual([d.id]);
    expect(aborted).toEqual([`uploads/${record.archiveKey}/${record.multipartUploadId}`]);
    expect([...p.objects.objects.keys()].filter((k) => k.includes(d.id))).toEqual([]);
  });
});
