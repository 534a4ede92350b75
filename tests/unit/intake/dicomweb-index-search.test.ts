import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryDicomIndex, type MemoryDicomIndex } from '#functions/adapters/memory/dicom-index.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { indexItemsOf } from '#shared/domain/intake/dicom-index.ts';
import { QIDO_SCAN_MAX, searchDicom, type ReadDeps } from '#shared/domain/intake/dicomweb-read.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';

/**
 * QIDO-RS over the DICOMweb index (docs/dicom-intake.md#the-dicomweb-index), with the index in memory under the same
 * contract as the table's: what a search reads does not grow with the hospital past its budget, a UID reads its own
 * item, limit and offset page the matches, and the guards hide a held series and a dataset in the recycle bin.
 */
const HOSPITAL = 'hosp-index-unit';
const STUDIES = 1200;
const TAGS = { StudyInstanceUID: '0020000D', SeriesInstanceUID: '0020000E' } as const;

let index: MemoryDicomIndex;
const studyUids: string[] = [];
const seriesUids: string[] = [];

function deps(): ReadDeps {
  return {
    objects: { get: () => Promise.reject(new Error('no object is read by these searches')) },
    directory: { getTeam: () => Promise.resolve(undefined) },
    dicomIndex: index,
  };
}
const client = { id: 'client-1', hospitalId: HOSPITAL, teamId: undefined };
const search = (params: Record<string, string[]>) =>
  searchDicom(client, { level: 'study', params, baseUrl: 'https://example.test/dicomweb' }, deps());
const uidOf = (d: Record<string, { Value?: unknown[] }>) => d[TAGS.StudyInstanceUID]?.Value?.[0];

beforeAll(async () => {
  index = createMemoryDicomIndex();
  for (let i = 0; i < STUDIES; i++) {
    // Arrange: a hospital of 1,200 one-instance studies, each its own dataset, in key order by their root
    const root = `1.2.826.0.1.3680043.9.${String(1000 + i)}`;
    const [file] = buildStudy([{ seriesNumber: 1, slices: 1, seriesDescription: 'T1 MPRAGE' }], 'slice', { root });
    const datasetId = `ds-${String(i).padStart(5, '0')}`;
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const studyUID = `${root}.2`;
    const seriesUID = `${root}.3.1`;
    const dataset = { id: datasetId, hospitalId: HOSPITAL, createdAt, deidentifiedAt: createdAt, teamId: null };
    index.datasets.set(datasetId, dataset as unknown as DatasetRecord);
    index.series.set(`${datasetId}#${seriesUID}`, {
      id: seriesUID,
      datasetId,
      hospitalId: HOSPITAL,
      seriesInstanceUID: seriesUID,
    } as SeriesRecord);
    const key = `${HOSPITAL}/${datasetId}/${seriesUID}/${root}.1.1.dcm`;
    await index.put(
      indexItemsOf(dataset, new Map([[seriesUID, [{ key, size: file!.bytes.byteLength, header: file!.bytes }]]])),
    );
    studyUids.push(studyUID);
    seriesUids.push(seriesUID);
  }
});

describe('QIDO-RS over the DICOMweb index', () => {
  it('reads one item for a StudyInstanceUID, whatever the size of the hospital', async () => {
    // Arrange
    index.read.items = 0;
    const wanted = studyUids[700]!;

    // Act
    const found = await search({ StudyInstanceUID: [wanted] });

    // Assert
    expect(found.map(uidOf)).toEqual([wanted]);
    expect(index.read.items).toBe(1);
  });

  it('reads at most its budget for a key that matches nothing, and says the answer may be partial', async () => {
    // Arrange
    index.read.items = 0;

    // Act
    const found = await search({ StudyDescription: ['*NOTHING*'] });

    // Assert
    expect([...found]).toEqual([]);
    expect(found.partial).toBe(true);
    expect(index.read.items).toBe(QIDO_SCAN_MAX);
  });

  it('pages the matches with limit and offset, reading about one page', async () => {
    // Arrange
    index.read.items = 0;
    const sorted = [...studyUids].sort();

    // Act
    const found = await search({ limit: ['5'], offset: ['3'] });

    // Assert
    expect(found.map(uidOf)).toEqual(sorted.slice(3, 8));
    expect(found.partial).toBeUndefined();
    expect(index.read.items).toBeLessThanOrEqual(3 + 5 + 1);
  });

  it('leaves out a series held for burned-in text and a dataset in the recycle bin, and serves them once cleared', async () => {
    // Arrange
    const held = index.series.get(`ds-00010#${seriesUids[10]!}`)!;
    const binned = index.datasets.get('ds-00011')!;
    held.burnedInText = { reasons: ['BURNED_IN_ANNOTATION'] };
    binned.deletedAt = '2026-02-01T00:00:00.000Z';
    const params = { StudyInstanceUID: [`${studyUids[10]!},${studyUids[11]!},${studyUids[12]!}`] };

    // Act
    const hidden = await search(params);
    held.burnedInText = { reasons: ['BURNED_IN_ANNOTATION'], releasedAt: '2026-02-02T00:00:00.000Z' } as never;
    delete binned.deletedAt;
    const shown = await search(params);

    // Assert
    expect(hidden.map(uidOf)).toEqual([studyUids[12]]);
    expect(shown.map(uidOf)).toEqual([studyUids[10], studyUids[11], studyUids[12]]);
  });
});
