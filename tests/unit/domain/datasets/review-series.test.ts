import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { unpackHeaders } from '#shared/dicom/header-bundle.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { previewSeries, redactSeries } from '#shared/domain/datasets/review-series.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

const SERIES = '2.25.1';

/** A COMPLETE dataset with a held series of two 8x8 instances (the builder's ramp, sample i = i), stored. */
async function heldSeries(options: { status?: DatasetStatus; held?: boolean; transferSyntaxUID?: string } = {}) {
  const p = ports();
  const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
  await p.datasets.update('h1', d.id, { status: options.status ?? 'COMPLETE' }, ['CREATED']);
  await p.datasets.putSeries({
    id: SERIES,
    datasetId: d.id,
    hospitalId: 'h1',
    seriesInstanceUID: SERIES,
    description: 'Screenshot',
    seriesNumber: 1,
    modality: 'OT',
    sliceCount: 2,
    sizeBytes: 1,
    selected: true,
    classification: null,
    ...(options.held === false ? {} : { burnedInText: { reasons: ['BURNED_IN_ANNOTATION' as const] } }),
    createdAt: '',
  });
  const keys: string[] = [];
  for (const n of [2, 1]) {
    const key = studyKeys.instance('h1', d.id, SERIES, `${SERIES}.${n}`);
    const extra = [
      { tag: '00080018', vr: 'UI', value: `${SERIES}.${n}` },
      { tag: '00200013', vr: 'IS', value: String(n) },
      { tag: '00280301', vr: 'CS', value: 'YES' },
    ];
    await p.objects.put(
      'studies',
      key,
      buildDicom({ extra, ...(options.transferSyntaxUID ? { transferSyntaxUID: options.transferSyntaxUID } : {}) }),
    );
    keys.push(key);
  }
  return { p, datasetId: d.id, keys: keys.sort() };
}

function samples(bytes: Uint8Array): number[] {
  const parsed = parseDicom(bytes);
  const element = parsed.dataSet.elements.x7fe00010!;
  const view = new DataView(parsed.bytes.buffer, parsed.bytes.byteOffset + element.dataOffset, element.length);
  return Array.from({ length: element.length / 2 }, (_, i) => view.getUint16(i * 2, true));
}

describe('previewing a held series', () => {
  it('serves a frame of the series as a PNG of the image size to a lead, audited', async () => {
    // Arrange
    const { p, datasetId } = await heldSeries();

    // Act
    const preview = await previewSeries(datasetId, SERIES, 1, caller('TEAM_LEAD'), p);

    // Assert
    expect(preview).toMatchObject({ seriesId: SERIES, frame: 1, frameCount: 2, width: 8, height: 8 });
    const png = PNG.sync.read(Buffer.from(preview.image.replace('data:image/png;base64,', ''), 'base64'));
    expect([png.width, png.height]).toEqual([8, 8]);
    expect(p.audit.events.filter((e) => e.action === 'SERIES_PREVIEWED')).toHaveLength(1);
    // Stepping through the frames is one review: recorded once per read window
    await previewSeries(datasetId, SERIES, 0, caller('TEAM_LEAD'), p);
    expect(p.audit.events.filter((e) => e.action === 'SERIES_PREVIEWED')).toHaveLength(1);
  });

  it('refuses a member, hides the dataset from another team, and refuses a series that is not held', async () => {
    // Arrange
    const { p, datasetId } = await heldSeries();
    const notHeld = await heldSeries({ held: false });

    // Act / Assert
    await expect(previewSeries(datasetId, SERIES, 0, caller('TEAM_MEMBER'), p)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await expect(previewSeries(datasetId, SERIES, 0, caller('TEAM_LEAD', { teamId: 't2' }), p)).rejects.toMatchObject({
      code: 'DATASET_NOT_FOUND',
    });
    await expect(
      previewSeries(notHeld.datasetId, SERIES, 0, caller('HOSPITAL_ADMIN'), notHeld.p),
    ).rejects.toMatchObject({ code: 'SERIES_NOT_HELD' });
    await expect(previewSeries(datasetId, SERIES, 2, caller('TEAM_LEAD'), p)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    // Only the refused read of a dataset the caller may not see is recorded, as DENIED
    expect(
      p.audit.events.filter((e) => e.action === 'SERIES_PREVIEWED').map((e) => (e as { outcome?: string }).outcome),
    ).toEqual(['DENIED']);
  });
});

describe('redacting a held series', () => {
  it('blanks the rectangles in every instance, records it, releases and reprocesses the dataset', async () => {
    // Arrange
    const { p, datasetId, keys } = await heldSeries();
    const rectangles = [{ x: 0, y: 0, width: 4, height: 2 }];

    // Act
    const series = await redactSeries(datasetId, SERIES, { rectangles }, caller('TEAM_LEAD'), p);

    // Assert: pixels inside are 0, outside as they were, in both instances
    for (const key of keys) {
      const values = samples(await p.objects.get('studies', key));
      values.forEach((value, i) => expect(value).toBe(i % 8 < 4 && i < 16 ? 0 : i));
      expect(parseDicom(await p.objects.get('studies', key)).dataSet.string('x00280301')).toBe('NO');
    }
    // The header bundle follows the rewritten instances
    const bundle = unpackHeaders(await p.objects.get('studies', studyKeys.seriesHeaders('h1', datasetId, SERIES)));
    expect(bundle.map((h) => parseDicom(h).dataSet.string('x00280301'))).toEqual(['NO', 'NO']);
    expect(series.burnedInText).toMatchObject({
      releasedAt: '2026-02-01T10:00:00.000Z',
      releasedByUserId: 'user-team_lead',
      redactions: rectangles,
    });
    expect(p.audit.events.map((e) => e.action)).toEqual(expect.arrayContaining(['SERIES_REDACTED', 'STATUS_CHANGED']));
    expect((await p.datasets.get('h1', datasetId))!.status).toBe('UPLOADING');
    expect(p.pipeline.started).toHaveLength(1);
    // Released now: neither a second redaction nor a preview
    await expect(redactSeries(datasetId, SERIES, { rectangles }, caller('TEAM_LEAD'), p)).rejects.toMatchObject({
      code: 'SERIES_NOT_HELD',
    });
  });

  it('refuses a compressed series before writing anything, and a member', async () => {
    // Arrange: instances in a compressed syntax (RLE Lossless, PS3.5 A.4.2)
    const { p, datasetId, keys } = await heldSeries();
    for (const key of keys) {
      const named = Buffer.from(await p.objects.get('studies', key));
      named.write('1.2.840.10008.1.2.5', named.indexOf('1.2.840.10008.1.2.1\0', 0, 'latin1'), 'latin1');
      await p.objects.put('studies', key, new Uint8Array(named));
    }
    const before = await p.objects.get('studies', keys[0]!);
    const rectangles = [{ x: 0, y: 0, width: 1, height: 1 }];

    // Act / Assert
    await expect(redactSeries(datasetId, SERIES, { rectangles }, caller('TEAM_MEMBER'), p)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await expect(redactSeries(datasetId, SERIES, { rectangles }, caller('HOSPITAL_ADMIN'), p)).rejects.toMatchObject({
      code: 'SERIES_NOT_REDACTABLE',
    });
    expect(await p.objects.get('studies', keys[0]!)).toEqual(before);
    expect((await p.datasets.listSeries('h1', datasetId))[0]!.burnedInText!.releasedAt).toBeUndefined();
  });

  it('waits while the pipeline is writing the dataset', async () => {
    // Arrange
    const { p, datasetId } = await heldSeries({ status: 'PROCESSING' });

    // Act / Assert
    await expect(
      redactSeries(datasetId, SERIES, { rectangles: [{ x: 0, y: 0, width: 1, height: 1 }] }, caller('TEAM_LEAD'), p),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });
});
