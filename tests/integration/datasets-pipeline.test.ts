import { readFileSync } from 'node:fs';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';
import { archiveParts, packArchive } from '#tests/helpers/study-archive.ts';
import { createResearchDataset, runPipeline, useHarnessOverSharedData } from './datasets-harness.ts';

const MEMBER = 'member@northside.demo.local';
const ADMIN = 'admin@northside.demo.local';
const h = useHarnessOverSharedData();

/** Uploads files as a client does: session, a batch of part URLs, the archive's parts (into the in-memory store), complete. */
async function upload(datasetId: string, files: { path: string; bytes: Uint8Array }[]) {
  const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
    as: MEMBER,
    body: { files: files.map((f) => ({ fileKey: fileKeyOf(f.path), sizeBytes: f.bytes.byteLength })) },
  });
  expect(session.status).toBe(201);
  const parts = archiveParts(packArchive(files.map((f) => f.bytes)), session.body.partBytes);
  expect(parts).toHaveLength(session.body.partCount);
  const urls = await h.call('POST', `/api/uploads/${session.body.sessionId}/parts`, {
    as: MEMBER,
    body: { partNumbers: parts.map((_, i) => i + 1) },
  });
  expect(urls.status).toBe(200);
  for (const { partNumber, url } of urls.body.urls as { partNumber: number; url: string }[]) {
    const uploadId = new URL(url).searchParams.get('uploadId')!;
    h.objects.uploadPart(uploadId, partNumber, parts[partNumber - 1]!);
  }
  return h.call('POST', `/api/uploads/${session.body.sessionId}/complete`, { as: MEMBER });
}

describe('dataset pipeline through the real state machine definition', () => {
  it('takes a T1 upload with a stray non-DICOM file to COMPLETE with volume, thumbnail, surface and report', async () => {
    // Prepare
    const figures = async () => {
      const dashboard = await h.call('GET', '/api/dashboard', { as: ADMIN });
      const usage = await h.call('GET', '/api/usage', { as: ADMIN });
      return { completed: dashboard.body.pipeline.completed, runs: usage.body.hospitals[0].compute.runs };
    };
    const before = await figures();
    const dicom = listFiles(join(requireSharedData(), 'ge-t1-ir-spgr/dicom'));
    const files = [
      ...dicom.map((path) => ({ path: `study/${basename(path)}`, bytes: new Uint8Array(readFileSync(path)) })),
      { path: 'study/notes.txt', bytes: new TextEncoder().encode('not an image') },
    ];
    const datasetId = await createResearchDataset(h, MEMBER, 'T1 research scan');

    // Act
    const completed = await upload(datasetId, files);
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('UPLOADING');
    const run = h.started.find((s) => s.datasetId === datasetId)!;
    const result = await runPipeline(run);

    // Assess
    expect(result).toEqual({ ok: true });
    const detail = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(detail.body.status).toBe('COMPLETE');
    expect(detail.body.series).toHaveLength(1);
    expect(detail.body.fileErrors).toEqual([{ fileIndex: dicom.length, message: 'Not a DICOM file' }]);
    expect(detail.body.series[0].sliceCount).toBe(dicom.length);
    expect(detail.body.series[0].classification).toMatchObject({ classifiedType: 'T1', source: 'AI' });
    const types = detail.body.processedAssets.map((a: { type: string }) => a.type).sort();
    expect(types).toEqual(['REPORT', 'SURFACE', 'THUMBNAIL', 'VOLUME']);
    expect(detail.body.processedAssets.every((a: { url?: string }) => a.url?.startsWith('https://'))).toBe(true);
    // Raw uploads are gone once the de-identified copies are stored.
    expect([...h.objects.objects.keys()].filter((k) => k.startsWith(`uploads/hosp-northside/${datasetId}/`))).toEqual(
      [],
    );
    const studies = [...h.objects.objects.keys()].filter((k) => k.startsWith(`studies/hosp-northside/${datasetId}/`));
    expect(studies.filter((k) => k.endsWith('.dcm'))).toHaveLength(dicom.length);
    expect(studies.filter((k) => !k.endsWith('.dcm'))).toEqual([
      expect.stringMatching(new RegExp(`^studies/hosp-northside/${datasetId}/headers/[0-9.]+\\.bin$`)),
    ]);
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: MEMBER });
    const statuses = history.body.items
      .filter((e: { action: string }) => e.action === 'STATUS_CHANGED')
      .map((e: { details: { to: string } }) => e.details.to);
    expect(statuses).toEqual(['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING', 'COMPLETE']);
    const deid = history.body.items.find((e: { action: string }) => e.action === 'DATASET_DEIDENTIFIED');
    expect(deid.details).toMatchObject({ files: dicom.length, rejectedFiles: 1, series: 1 });
    expect(JSON.stringify(history.body)).not.toContain('MRN-77');
    // The dashboard's counter and the day's compute meter moved with the run (docs/domain.md#counters).
    expect(await figures()).toEqual({ completed: before.completed + 1, runs: before.runs + 1 });
  }, 240_000);

  it('marks a dataset with no valid DICOM FAILED with the catalogue reason, and a retry restarts it', async () => {
    // Prepare
    const datasetId = await createResearchDataset(h, MEMBER, 'Not images');
    await upload(datasetId, [{ path: 'a.txt', bytes: new TextEncoder().encode('plain text, not DICOM') }]);
    const run = h.started.find((s) => s.datasetId === datasetId)!;

    // Act
    const result = await runPipeline(run);

    // Assess
    expect(result.ok).toBe(false);
    const failed = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(failed.body.status).toBe('FAILED');
    expect(failed.body.failureReason).toBe('No valid DICOM files detected. Upload DICOM files to continue.');
    const retried = await h.call('POST', `/api/datasets/${datasetId}/retry`, { as: MEMBER });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('UPLOADING');
    expect(retried.body.failureReason).toBeUndefined();
    expect(h.started.filter((s) => s.datasetId === datasetId)).toHaveLength(2);
  }, 60_000);

  it('fails a dataset whose stored archive does not read back as declared, naming no member', async () => {
    // Prepare: a member renamed after a patient, the archive's length unchanged (so completion accepts it).
    const ct = new Uint8Array(readFileSync(join(requireSharedData(), 'ct-small/CT_small.dcm')));
    const datasetId = await createResearchDataset(h, MEMBER, 'Forged archive');
    const session = await h.call('POST', `/api/datasets/${datasetId}/upload/session`, {
      as: MEMBER,
      body: { files: [{ fileKey: fileKeyOf('ct.dcm'), sizeBytes: ct.byteLength }] },
    });
    const archive = packArchive([ct]);
    archive.set(new TextEncoder().encode('DOE^JANE'), 0);
    const urls = await h.call('POST', `/api/uploads/${session.body.sessionId}/parts`, {
      as: MEMBER,
      body: { partNumbers: [1] },
    });
    h.objects.uploadPart(new URL(urls.body.urls[0].url).searchParams.get('uploadId')!, 1, archive);
    expect((await h.call('POST', `/api/uploads/${session.body.sessionId}/complete`, { as: MEMBER })).status).toBe(200);

    // Act
    const result = await runPipeline(h.started.filter((s) => s.datasetId === datasetId).at(-1)!);

    // Assess
    expect(result.ok).toBe(false);
    const failed = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(failed.body.status).toBe('FAILED');
    expect(failed.body.failureReason).toBe(
      'The uploaded study could not be read back as it was declared. Upload it again.',
    );
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: MEMBER });
    expect(JSON.stringify([failed.body, history.body])).not.toContain('DOE');
  }, 60_000);

  it('fails a stage after de-identification with a readable reason, and a retry finishes without the raw files', async () => {
    // Prepare
    const ct = join(requireSharedData(), 'ct-small/CT_small.dcm');
    const datasetId = await createResearchDataset(h, MEMBER, 'Single CT slice');
    await upload(datasetId, [{ path: 'ct.dcm', bytes: new Uint8Array(readFileSync(ct)) }]);
    const original = h.objects.get.bind(h.objects);
    let failures = 0;
    h.objects.get = async (bucket, key) => {
      if (bucket === 'studies' && failures === 0) {
        failures += 1;
        throw new TypeError('simulated crash while reading PatientName=DOE^JOHN');
      }
      return original(bucket, key);
    };

    // Act
    const first = await runPipeline(h.started.filter((s) => s.datasetId === datasetId).at(-1)!);
    h.objects.get = original;
    const failed = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    const retried = await h.call('POST', `/api/datasets/${datasetId}/retry`, { as: MEMBER });
    const second = await runPipeline(h.started.filter((s) => s.datasetId === datasetId).at(-1)!);

    // Assess
    expect(first.ok).toBe(false);
    expect(failed.body).toMatchObject({ status: 'FAILED', failureReason: 'Processing failed (TypeError)' });
    expect(JSON.stringify(failed.body)).not.toContain('DOE');
    expect(retried.body.status).toBe('UPLOADING');
    expect(second).toEqual({ ok: true });
    const done = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(done.body.status).toBe('COMPLETE');
    expect(done.body.series).toHaveLength(1);
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: MEMBER });
    expect(history.body.items.filter((e: { action: string }) => e.action === 'DATASET_DEIDENTIFIED')).toHaveLength(1);
    const statuses = history.body.items
      .filter((e: { action: string }) => e.action === 'STATUS_CHANGED')
      .map((e: { details: { to: string } }) => e.details.to);
    expect(statuses).toEqual([
      'UPLOADING',
      'ANONYMIZING',
      'CLASSIFYING',
      'FAILED',
      'UPLOADING',
      'ANONYMIZING',
      'CLASSIFYING',
      'PROCESSING',
      'COMPLETE',
    ]);
    expect(history.body.items.find((e: { action: string }) => e.action === 'SURFACE_SKIPPED')).toBeDefined();
  }, 120_000);
});
