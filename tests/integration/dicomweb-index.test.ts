import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { batchDelete, queryAll, primaryKeyOf } from '#functions/adapters/dynamo/expressions.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';
import { runPipeline } from './datasets-harness.ts';
import { useDicomwebHarness, first, json, parts, TAGS, type DicomJson, type Reply } from './dicomweb-harness-client.ts';

/**
 * The DICOMweb index (docs/dicom-intake.md#the-dicomweb-index): the pipeline enters each de-identified copy in it, QIDO-RS
 * and WADO-RS read only the items their keys name (never a walk of the hospital's datasets nor a listing of the studies
 * bucket), a dataset in the recycle bin is hidden from both until it is restored, and the backfill job rebuilds the
 * items of datasets stored before the index, the same items however often it runs. In process: the real DICOMweb,
 * integrations, datasets and jobs handlers over the harness's table and object store.
 */
const ADMIN = 'admin@northside.demo.local';

const { h, dicomweb } = useDicomwebHarness('Index PACS');

/** Counts the calls of the reads a search must not make (a walk of datasets, a listing of the bucket) and of the index. */
function countReads() {
  const counts = { datasetLists: 0, objectLists: 0, indexQueries: 0, indexItems: 0 };
  const { datasets, objects, dicomIndex } = h.deps;
  const list = datasets.list.bind(datasets);
  const listObjects = objects.list.bind(objects);
  const query = dicomIndex.query.bind(dicomIndex);
  datasets.list = (q) => (counts.datasetLists++, list(q));
  objects.list = (bucket, prefix) => (counts.objectLists++, listObjects(bucket, prefix));
  dicomIndex.query = (async (hospitalId, q, page) => {
    counts.indexQueries++;
    const result = await query(hospitalId, q, page);
    counts.indexItems += result.items.length;
    return result;
  }) as typeof dicomIndex.query;
  return {
    counts,
    restore() {
      datasets.list = list;
      objects.list = listObjects;
      dicomIndex.query = query;
    },
  };
}

async function store(
  root: string,
  seriesCount: number,
  slices: number,
  studyDate: string,
): Promise<{ study: string; datasetId: string }> {
  const files = buildStudy(
    Array.from({ length: seriesCount }, (_, i) => ({ seriesNumber: i + 1, slices })),
    'slice',
    { root, studyDate },
  );
  const boundary = 'index-boundary';
  const stored = await dicomweb('POST', '/dicomweb/studies', {
    body: buildMultipart(
      files.map((f) => ({ contentType: 'application/dicom', bytes: f.bytes })),
      boundary,
    ),
    headers: {
      'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
      accept: 'application/dicom+json',
    },
  });
  expect(stored.statusCode).toBe(200);
  const url = String(
    first((json<DicomJson>(stored)[TAGS.ReferencedSOPSequence]!.Value as DicomJson[])[0]!, TAGS.RetrieveURL),
  );
  const study = /\/studies\/([^/]+)\//.exec(url)![1]!;
  expect((await dicomweb('POST', `/dicomweb/studies/${root}.2/commit`)).statusCode).toBeLessThan(300);
  const run = h.started.at(-1)!;
  expect(await runPipeline(run)).toEqual({ ok: true });
  return { study, datasetId: run.datasetId };
}

async function indexItems(): Promise<Record<string, unknown>[]> {
  const hospitalId = h.user(ADMIN).hospitalId;
  return queryAll(h.table, keys.dicomIndexPartition(hospitalId), '');
}

const studyUids = (reply: Reply) => json<DicomJson[]>(reply).map((d) => first(d, TAGS.StudyInstanceUID));

describe('the DICOMweb index', () => {
  let a: { study: string; datasetId: string };
  let b: { study: string; datasetId: string };

  beforeAll(async () => {
    a = await store('1.2.826.0.1.3680043.9.9997', 2, 3, '20240105');
    b = await store('1.2.826.0.1.3680043.9.9996', 1, 2, '20240320');
  }, 120_000);

  it('answers QIDO-RS and WADO-RS from the items the keys name, never walking datasets nor listing the bucket', async () => {
    // Arrange
    const reads = countReads();
    try {
      // Act: a study by UID, a date range, a series' instances and a whole-study retrieval
      const byUid = await dicomweb('GET', `/dicomweb/studies?StudyInstanceUID=${a.study}`);
      const byUidCounts = { ...reads.counts };
      const patientId = first(json<DicomJson[]>(byUid)[0]!, TAGS.PatientID);
      const byPatient = await dicomweb('GET', `/dicomweb/studies?PatientID=${String(patientId)}`);
      const noMatch = await dicomweb('GET', '/dicomweb/studies?StudyDescription=Nothing*');
      const retrieved = await dicomweb('GET', `/dicomweb/studies/${a.study}`);

      // Assess
      expect(studyUids(byUid)).toEqual([a.study]);
      const [found] = json<DicomJson[]>(byUid);
      expect(first(found!, TAGS.NumberOfStudyRelatedSeries)).toBe(2);
      expect(first(found!, TAGS.NumberOfStudyRelatedInstances)).toBe(6);
      // One item read for the study itself (its copy), with no other study's items
      expect(byUidCounts.indexItems).toBe(1);
      expect(new Set(studyUids(byPatient))).toEqual(new Set([a.study, b.study]));
      expect(json<DicomJson[]>(noMatch)).toEqual([]);
      expect(parts(retrieved)).toHaveLength(6);
      expect(reads.counts.datasetLists).toBe(0);
      expect(reads.counts.objectLists).toBe(0);
    } finally {
      reads.restore();
    }
  });

  it('hides a dataset in the recycle bin from QIDO-RS and WADO-RS, and serves it again once restored', async () => {
    // Act
    const deleted = await h.call('DELETE', `/api/datasets/${b.datasetId}`, { as: ADMIN, body: { reason: 'Test' } });
    expect(deleted.status).toBe(204);
    const whileBinned = await dicomweb('GET', '/dicomweb/studies');
    const retrieveBinned = await dicomweb('GET', `/dicomweb/studies/${b.study}`);
    const restored = await h.call('POST', `/api/datasets/${b.datasetId}/restore`, { as: ADMIN });
    const afterRestore = await dicomweb('GET', '/dicomweb/studies');

    // Assess
    expect(studyUids(whileBinned)).toEqual([a.study]);
    expect(retrieveBinned.statusCode).toBe(404);
    expect(restored.status).toBe(200);
    expect(new Set(studyUids(afterRestore))).toEqual(new Set([a.study, b.study]));
  });

  it('is rebuilt by the backfill job for datasets stored before it, with the same items however often it runs', async () => {
    // Arrange: the hospital's index as it was before the index existed
    const before = await indexItems();
    // Two studies, three series, eight instances
    expect(before.length).toBe(2 + 3 + 8);
    await batchDelete(h.table, before.map(primaryKeyOf));
    expect(json<DicomJson[]>(await dicomweb('GET', '/dicomweb/studies'))).toEqual([]);

    // Act: the backfill, twice
    for (let run = 0; run < 2; run++) {
      const started = await h.call('POST', '/api/integrations/dicomweb-index', { as: ADMIN });
      expect(started.status).toBe(202);
      await h.settleJobs();
      const job = await h.call('GET', `/api/jobs/${started.body.jobId}`, { as: ADMIN });
      expect(job.body).toMatchObject({ status: 'SUCCEEDED', failed: 0 });
    }

    // Assess
    const after = await indexItems();
    const sorted = (items: Record<string, unknown>[]) =>
      items.map((i) => JSON.stringify(Object.entries(i).sort(([x], [y]) => x.localeCompare(y)))).sort();
    expect(sorted(after)).toEqual(sorted(before));
    const studies = await dicomweb('GET', '/dicomweb/studies');
    expect(new Set(studyUids(studies))).toEqual(new Set([a.study, b.study]));
  }, 60_000);
});
