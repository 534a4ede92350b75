import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { completeFile } from '#shared/domain/uploads/complete-file.ts';
import { completeUpload } from '#shared/domain/uploads/complete-upload.ts';
import { getUploadSession } from '#shared/domain/uploads/get-upload-session.ts';
import { openUploadSession } from '#shared/domain/uploads/open-upload-session.ts';
import { presignParts } from '#shared/domain/uploads/presign-parts.ts';
import { uploadDataset } from '#shared/client/upload-client.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import {
  CreateUploadSessionRequestSchema,
  MAX_ENHANCED_FILES,
  MAX_FILE_BYTES,
  UPLOAD_PART_BYTES,
} from '#shared/schemas/api/uploads.ts';
import { uploadFileKey } from '#shared/client/file-key.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { caller, NEW_DATASET, ports } from './fakes.ts';

const member = caller('TEAM_MEMBER');

async function opened(sizes = [10, UPLOAD_PART_BYTES + 1]) {
  const p = ports();
  const d = await createDataset(NEW_DATASET, member, p);
  const session = await openUploadSession(
    d.id,
    sizes.map((sizeBytes, i) => ({ fileKey: fileKeyOf(`f${i}.dcm`), sizeBytes })),
    member,
    p,
  );
  return { p, d, session };
}

describe('upload sessions', () => {
  it('opens one multipart upload per file and moves the dataset to UPLOADING', async () => {
    const { p, d, session } = await opened();
    expect(session.files.map((f) => f.partCount)).toEqual([1, 2]);
    expect((await p.datasets.get('h1', d.id))!.status).toBe('UPLOADING');
    expect([...p.uploads.files.values()].map((f) => f.objectKey)).toEqual([`h1/${d.id}/raw/0`, `h1/${d.id}/raw/1`]);
  });

  it("starts each file's multipart upload once, on the first part URLs, even when requests race", async () => {
    const { p, session } = await opened();
    expect([...p.uploads.files.values()].every((f) => f.multipartUploadId === undefined)).toBe(true);
    const answers = await Promise.all([1, 2, 1].map((n) => presignParts(session.sessionId, 1, [n], member, p)));
    const ids = answers.map((a) => new URL(a.urls[0]!.url).searchParams.get('uploadId'));
    expect(new Set(ids).size).toBe(1);
    expect(p.uploads.files.get(`${session.sessionId}/1`)!.multipartUploadId).toBe(ids[0]);
  });

  it('resumes: opening again returns the same session with the parts already stored', async () => {
    const { p, d, session } = await opened();
    await presignParts(session.sessionId, 1, [1], member, p);
    const file = p.uploads.files.get(`${session.sessionId}/1`)!;
    const etag = p.objects.uploadPart(file.multipartUploadId!, 1, new Uint8Array(8));
    const again = await openUploadSession(d.id, [{ fileKey: fileKeyOf('f0.dcm'), sizeBytes: 10 }], member, p);
    expect(again.sessionId).toBe(session.sessionId);
    expect(again.files[1]!.completedParts).toEqual([{ partNumber: 1, etag }]);
    expect((await getUploadSession(session.sessionId, member, p)).files[1]!.completedParts).toHaveLength(1);
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

  it('presigns only parts the file has, completes files, then starts the pipeline once all are complete', async () => {
    const { p, d, session } = await opened([10]);
    await expect(presignParts(session.sessionId, 0, [2], member, p)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const { urls } = await presignParts(session.sessionId, 0, [1], member, p);
    expect(urls[0]!.url).toContain('partNumber=1');
    await expect(completeUpload(session.sessionId, member, p)).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    const file = p.uploads.files.get(`${session.sessionId}/0`)!;
    const etag = p.objects.uploadPart(file.multipartUploadId!, 1, new Uint8Array(10).fill(7));
    await completeFile(session.sessionId, 0, [{ partNumber: 1, etag }], member, p);
    expect(await completeFile(session.sessionId, 0, [{ partNumber: 1, etag }], member, p)).toEqual({
      fileIndex: 0,
      status: 'COMPLETE',
    });
    const dataset = await completeUpload(session.sessionId, member, p);
    expect(dataset.status).toBe('UPLOADING');
    expect(p.pipeline.started).toHaveLength(1);
    expect(await p.objects.get('uploads', `h1/${d.id}/raw/0`)).toEqual(new Uint8Array(10).fill(7));
  });

  it('refuses to complete a file whose stored parts do not add up to the declared size (truncated or oversized)', async () => {
    const { p, session } = await opened([10, UPLOAD_PART_BYTES + 1]);
    await presignParts(session.sessionId, 0, [1], member, p);
    await presignParts(session.sessionId, 1, [1, 2], member, p);
    const small = p.uploads.files.get(`${session.sessionId}/0`)!.multipartUploadId!;
    const truncated = p.objects.uploadPart(small, 1, new Uint8Array(2));
    await expect(
      completeFile(session.sessionId, 0, [{ partNumber: 1, etag: truncated }], member, p),
    ).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    const oversized = p.objects.uploadPart(small, 1, new Uint8Array(11));
    await expect(
      completeFile(session.sessionId, 0, [{ partNumber: 1, etag: oversized }], member, p),
    ).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    // A short first part and a long last part add up to the declared size but break the part layout.
    const big = p.uploads.files.get(`${session.sessionId}/1`)!.multipartUploadId!;
    const parts = [
      p.objects.uploadPart(big, 1, new Uint8Array(1)),
      p.objects.uploadPart(big, 2, new Uint8Array(UPLOAD_PART_BYTES)),
    ];
    await expect(
      completeFile(
        session.sessionId,
        1,
        parts.map((etag, i) => ({ partNumber: i + 1, etag })),
        member,
        p,
      ),
    ).rejects.toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
    expect([...p.uploads.files.values()].every((f) => f.status === 'PENDING')).toBe(true);
    const exact = p.objects.uploadPart(small, 1, new Uint8Array(10));
    expect(await completeFile(session.sessionId, 0, [{ partNumber: 1, etag: exact }], member, p)).toEqual({
      fileIndex: 0,
      status: 'COMPLETE',
    });
  });

  it('completes a file with the ETags the store listed (whose sizes it checked), never the ETags the client sent', async () => {
    const { p, d, session } = await opened([10]);
    await presignParts(session.sessionId, 0, [1], member, p);
    const uploadId = p.uploads.files.get(`${session.sessionId}/0`)!.multipartUploadId!;
    const listed = p.objects.uploadPart(uploadId, 1, new Uint8Array(10).fill(3));
    const sent: unknown[] = [];
    const complete = p.objects.completeMultipart.bind(p.objects);
    p.objects.completeMultipart = async (bucket, key, id, parts) => {
      sent.push(parts);
      return complete(bucket, key, id, parts);
    };
    await completeFile(session.sessionId, 0, [{ partNumber: 1, etag: '"not-what-was-checked"' }], member, p);
    expect(sent).toEqual([[{ partNumber: 1, etag: listed }]]);
    expect(await p.objects.get('uploads', `h1/${d.id}/raw/0`)).toEqual(new Uint8Array(10).fill(3));
  });

  it('lets only the owner, their lead or an admin work on an upload session, not a teammate who can see the dataset', async () => {
    const { p, session } = await opened([10]);
    const teammate = caller('TEAM_MEMBER', { userId: 'user-teammate' });
    await expect(getUploadSession(session.sessionId, teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(presignParts(session.sessionId, 0, [1], teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(completeFile(session.sessionId, 0, [{ partNumber: 1, etag: 'x' }], teammate, p)).rejects.toMatchObject(
      { code: 'ACCESS_DENIED' },
    );
    await expect(completeUpload(session.sessionId, teammate, p)).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect([...p.uploads.files.values()].every((f) => f.multipartUploadId === undefined)).toBe(true);
    expect((await presignParts(session.sessionId, 0, [1], caller('TEAM_LEAD'), p)).urls).toHaveLength(1);
    expect((await getUploadSession(session.sessionId, caller('HOSPITAL_ADMIN'), p)).files).toHaveLength(1);
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
    const { p, session } = await opened([10]);
    const file = p.uploads.files.get(`${session.sessionId}/0`)!;
    await presignParts(session.sessionId, 0, [1], member, p);
    const etag = p.objects.uploadPart(
      p.uploads.files.get(`${session.sessionId}/0`)!.multipartUploadId!,
      1,
      new Uint8Array(10),
    );
    await completeFile(session.sessionId, 0, [{ partNumber: 1, etag }], member, p);
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
    expect(file.objectKey).toMatch(/raw\/0$/);
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
