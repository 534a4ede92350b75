import { describe, expect, it } from 'vitest';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';
import { runPipeline } from './datasets-harness.ts';
import { useDicomwebHarness, first, json, parts, TAGS, type DicomJson } from './dicomweb-harness-client.ts';

/**
 * Held means held over DICOMweb too (docs/dicom-intake.md#held-series, docs/pipeline.md#burned-in-text): a screen
 * capture declaring burned-in annotation, sent by STOW-RS and committed, is held by the pipeline; until a lead or
 * admin releases it, QIDO-RS does not list it and WADO-RS answers as if it did not exist, though STOW-RS handed out
 * its Retrieve URL. In process: the real DICOMweb and datasets handlers over the harness's table and object store.
 */
const ADMIN = 'admin@northside.demo.local';
const SOURCE_STUDY = '1.2.826.0.1.3680043.9.9999.2';
const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';

const { h, dicomweb } = useDicomwebHarness('Screen capture PACS');

describe('a series held for burned-in text over DICOMweb', () => {
  it('is absent from QIDO-RS and WADO-RS until it is released, while the rest of its study is served', async () => {
    // Arrange: an MR series and a screen capture declaring burned-in annotation, one study, sent by STOW-RS
    const files = buildStudy([
      { seriesNumber: 1, slices: 4 },
      { seriesNumber: 2, slices: 1, sopClassUID: SECONDARY_CAPTURE, burnedInAnnotation: 'YES' },
    ]);
    const boundary = 'held-series-boundary';
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
    const urls = (json<DicomJson>(stored)[TAGS.ReferencedSOPSequence]!.Value as DicomJson[]).map(
      (item) => new URL(String(first(item, TAGS.RetrieveURL))).pathname,
    );
    expect(urls).toHaveLength(5);
    const captureUrl = urls.at(-1)!;
    const [, study, series] = /^\/dicomweb\/studies\/([^/]+)\/series\/([^/]+)\/instances\/[^/]+$/.exec(captureUrl)!;
    const mrUrl = urls[0]!;
    const mrSeries = /\/series\/([^/]+)\//.exec(mrUrl)![1]!;
    expect(mrSeries).not.toBe(series);

    // Act: commit, and run the pipeline the commit started
    expect((await dicomweb('POST', `/dicomweb/studies/${SOURCE_STUDY}/commit`)).statusCode).toBeLessThan(300);
    const run = h.started.at(-1)!;
    expect(await runPipeline(run)).toEqual({ ok: true });
    const listed = await h.call('GET', `/api/datasets/${run.datasetId}/series`, { as: ADMIN });
    expect(listed.status).toBe(200);
    const held = (listed.body.items as { id: string; seriesInstanceUID: string; burnedInText?: unknown }[]).find(
      (s) => s.seriesInstanceUID === series,
    )!;
    expect(held.burnedInText).toMatchObject({ reasons: expect.arrayContaining(['BURNED_IN_ANNOTATION']) });

    // Assess: WADO-RS answers as if the held series did not exist: its instances, metadata, frames, bulk data and
    // renderings alike
    expect((await dicomweb('GET', captureUrl)).statusCode).toBe(404);
    expect((await dicomweb('GET', `${captureUrl}/metadata`)).statusCode).toBe(404);
    expect((await dicomweb('GET', `${captureUrl}/frames/1`)).statusCode).toBe(404);
    expect((await dicomweb('GET', `${captureUrl}/bulkdata/7FE00010`)).statusCode).toBe(404);
    expect((await dicomweb('GET', `${captureUrl}/rendered`, { headers: { accept: 'image/png' } })).statusCode).toBe(
      404,
    );
    expect(
      (
        await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}/rendered`, {
          headers: { accept: 'image/png' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await dicomweb('GET', `${mrUrl}/frames/1`)).statusCode).toBe(200);
    expect((await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}`)).statusCode).toBe(404);
    expect((await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}/metadata`)).statusCode).toBe(404);
    const wholeStudy = await dicomweb('GET', `/dicomweb/studies/${study}`);
    expect(wholeStudy.statusCode).toBe(200);
    expect(parts(wholeStudy)).toHaveLength(4);
    const studyMetadata = json<DicomJson[]>(await dicomweb('GET', `/dicomweb/studies/${study}/metadata`));
    expect(studyMetadata.map((d) => first(d, TAGS.SeriesInstanceUID))).toEqual([
      mrSeries,
      mrSeries,
      mrSeries,
      mrSeries,
    ]);
    expect((await dicomweb('GET', mrUrl)).statusCode).toBe(200);

    // Assess: QIDO-RS lists nothing of it, at any level, nor counts it
    const instances = json<DicomJson[]>(await dicomweb('GET', `/dicomweb/studies/${study}/instances`));
    expect(instances.map((d) => first(d, TAGS.SeriesInstanceUID))).toEqual([mrSeries, mrSeries, mrSeries, mrSeries]);
    expect(json<DicomJson[]>(await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}/instances`))).toEqual(
      [],
    );
    const allSeries = json<DicomJson[]>(await dicomweb('GET', '/dicomweb/series'));
    expect(allSeries.map((d) => first(d, TAGS.SeriesInstanceUID))).toEqual([mrSeries]);
    const studies = json<DicomJson[]>(await dicomweb('GET', '/dicomweb/studies'));
    const listedStudy = studies.find((d) => first(d, TAGS.StudyInstanceUID) === study)!;
    expect(first(listedStudy, TAGS.NumberOfStudyRelatedSeries)).toBe(1);
    expect(first(listedStudy, TAGS.NumberOfStudyRelatedInstances)).toBe(4);

    // Act: a hospital admin releases the series, having looked at it
    const released = await h.call('POST', `/api/datasets/${run.datasetId}/series/${held.id}/release`, { as: ADMIN });
    expect(released.status).toBe(200);

    // Assess: the URL STOW-RS returned now answers the instance, and QIDO-RS lists it
    const retrieved = await dicomweb('GET', captureUrl);
    expect(retrieved.statusCode).toBe(200);
    expect(parts(retrieved)).toHaveLength(1);
    expect((await dicomweb('GET', `${captureUrl}/frames/1`)).statusCode).toBe(200);
    expect((await dicomweb('GET', `${captureUrl}/rendered`, { headers: { accept: 'image/png' } })).statusCode).toBe(
      200,
    );
    expect((await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}/metadata`)).statusCode).toBe(200);
    const after = json<DicomJson[]>(await dicomweb('GET', `/dicomweb/studies/${study}/series/${series}/instances`));
    expect(after.map((d) => first(d, TAGS.SOPInstanceUID))).toEqual([captureUrl.split('/').at(-1)]);
  }, 120_000);
});
