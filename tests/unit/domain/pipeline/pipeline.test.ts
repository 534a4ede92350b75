import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import type { AssetRecord } from '#shared/domain/datasets/ports.ts';
import { buildDatasetSurface, pickAnatomicalVolume } from '#shared/domain/pipeline/build-surface.ts';
import { writeVolume } from '#shared/processing/nifti-io.ts';
import { diffusionCandidates } from '#shared/domain/pipeline/build-tracts.ts';
import { deidentifyStudy } from '#shared/domain/pipeline/deidentify-study.ts';
import { classifyOneSeries } from '#shared/domain/pipeline/classify-series.ts';
import { listDatasetSeries } from '#shared/domain/pipeline/list-series.ts';
import type { PipelineDeps } from '#shared/domain/pipeline/deps.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import { DICOM_LIMITS } from '#shared/dicom/limits.ts';
import { unpackHeaders } from '#shared/dicom/header-bundle.ts';
import { parseDicom, withoutPixelData } from '#shared/dicom/parse.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import { buildDicom, buildStudy, type BuiltElement } from '#tests/helpers/dicom-builder.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

function volume(id: string, metadata: Record<string, unknown>, byteSize = 100): AssetRecord {
  return {
    id,
    datasetId: 'd',
    hospitalId: 'h1',
    seriesId: id,
    type: 'VOLUME',
    label: id,
    byteSize,
    mimeType: 'application/gzip',
    metadata,
    createdAt: '',
    bucket: 'assets',
    objectKey: `h1/d/${id}.nii.gz`,
  };
}

describe('asset selection', () => {
  it('builds the surface from the best anatomical volume: T1 first, never diffusion or derived maps', () => {
    const assets = [
      volume('flair', { classifiedType: 'FLAIR' }, 900),
      volume('t1', { classifiedType: 'T1' }, 10),
      volume('dwi', { classifiedType: 'T1', bvalKey: 'x' }, 999),
      volume('fa', { classifiedType: 'T1', derivedFrom: 'dwi' }, 999),
    ];
    expect(pickAnatomicalVolume(assets)?.id).toBe('t1');
    expect(pickAnatomicalVolume(assets.filter((a) => a.id !== 't1'))?.id).toBe('flair');
    expect(pickAnatomicalVolume([volume('dwi', { classifiedType: 'DWI', bvalKey: 'x' })])).toBeUndefined();
  });

  it('builds the surface from the next anatomical volume when the best one cannot give one', async () => {
    // Prepare: a 3-slice T1 (too thin) and a FLAIR with a bright ball in a 32³ volume
    const p = ports();
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    const affine = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    const thin = writeVolume({
      dims: [64, 64, 3],
      voxelSize: [1, 1, 1],
      affine,
      datatype: 'float32',
      data: new Float32Array(64 * 64 * 3).fill(7),
    });
    const n = 32;
    const ball = writeVolume({
      dims: [n, n, n],
      voxelSize: [1, 1, 1],
      affine,
      datatype: 'float32',
      data: Float32Array.from({ length: n ** 3 }, (_, i) =>
        Math.hypot((i % n) - 15.5, (Math.floor(i / n) % n) - 15.5, Math.floor(i / (n * n)) - 15.5) <= 10 ? 800 : 20,
      ),
    });
    for (const [id, type, bytes] of [
      ['2.25.1', 'T1', thin],
      ['2.25.2', 'FLAIR', ball],
    ] as const) {
      const key = `h1/${d.id}/${id}/volume-0.nii.gz`;
      await p.objects.put('assets', key, bytes);
      await p.datasets.putAsset({ ...volume(id, { classifiedType: type }), datasetId: d.id, objectKey: key });
    }

    // Act
    await buildDatasetSurface({ hospitalId: 'h1', datasetId: d.id, runId: 'r1' }, {
      ...p,
      pseudonymSecret: async () => 's',
    } as PipelineDeps);

    // Assess
    const surface = (await p.datasets.listAssets('h1', d.id)).find((a) => a.type === 'SURFACE');
    expect(surface).toMatchObject({ seriesId: '2.25.2', objectKey: `h1/${d.id}/2.25.2/surface.mz3` });
  });

  it('builds tracts only for DTI/DWI volumes with at least 6 diffusion directions', async () => {
    const p = ports();
    const enc = (text: string) => new TextEncoder().encode(text);
    const six = {
      bval: '0 1000 1000 1000 1000 1000 1000',
      bvec: ['0 1 0 0 0.7 0.7 0', '0 0 1 0 0.7 0 0.7', '0 0 0 1 0 0.7 0.7'].join('\n'),
    };
    const three = { bval: '0 1000 1000 1000', bvec: ['0 1 0 0', '0 0 1 0', '0 0 0 1'].join('\n') };
    for (const [id, g] of [
      ['six', six],
      ['three', three],
      ['t2', six],
    ] as const) {
      await p.objects.put('assets', `${id}.bval`, enc(g.bval));
      await p.objects.put('assets', `${id}.bvec`, enc(g.bvec));
    }
    const assets = [
      volume('six', { classifiedType: 'DTI', bvalKey: 'six.bval', bvecKey: 'six.bvec' }),
      volume('three', { classifiedType: 'DWI', bvalKey: 'three.bval', bvecKey: 'three.bvec' }),
      volume('t2', { classifiedType: 'T2', bvalKey: 't2.bval', bvecKey: 't2.bvec' }),
    ];
    const picked = await diffusionCandidates(assets, { ...p, pseudonymSecret: async () => 's' } as PipelineDeps);
    expect(picked.map((c) => c.asset.id)).toEqual(['six']);
  });
});

describe('DeidentifyStudy and ClassifySeries over synthetic DICOM', () => {
  it('writes de-identified copies by series and SOP UID, records bad files, deletes raw uploads, and is idempotent', async () => {
    // Prepare
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    const good = (n: number) =>
      buildDicom({
        extra: [
          { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.9.9999.1.${n}` },
          { tag: '00200013', vr: 'IS', value: String(n) },
        ],
      });
    await p.objects.put('uploads', `h1/${d.id}/raw/0`, good(1));
    await p.objects.put('uploads', `h1/${d.id}/raw/1`, new TextEncoder().encode('not dicom'));
    await p.objects.put('uploads', `h1/${d.id}/raw/2`, good(2));
    const input = { hospitalId: 'h1', datasetId: d.id, runId: 'r1' };

    // Act
    await deidentifyStudy(input, deps);
    const afterFirst = [...p.objects.objects.keys()].sort();
    await deidentifyStudy(input, deps);

    // Assess
    const studies = afterFirst.filter((k) => k.startsWith('studies/') && k.endsWith('.dcm'));
    expect(studies).toHaveLength(2);
    expect(afterFirst.filter((k) => k.startsWith('studies/') && !k.endsWith('.dcm'))).toEqual([
      expect.stringMatching(new RegExp(`^studies/h1/${d.id}/headers/[0-9.]+\\.bin$`)),
    ]);
    for (const key of studies) expect(key).toMatch(new RegExp(`^studies/h1/${d.id}/[0-9.]+/[0-9.]+\\.dcm$`));
    expect(afterFirst.filter((k) => k.startsWith('uploads/'))).toEqual([]);
    expect([...p.objects.objects.keys()].sort()).toEqual(afterFirst);
    const stored = new TextDecoder('latin1').decode(p.objects.objects.get(studies[0]!)!);
    expect(stored).not.toContain('Test^Synthetic');
    expect(stored).not.toContain('SYNTH-0001');
    const dataset = (await p.datasets.get('h1', d.id))!;
    expect(dataset).toMatchObject({
      status: 'ANONYMIZING',
      seriesCount: 1,
      fileErrors: [{ fileIndex: 1, message: 'Not a DICOM file' }],
    });
    expect(p.audit.events.filter((e) => e.action === 'DATASET_DEIDENTIFIED')).toHaveLength(1);
    const series = await p.datasets.listSeries('h1', d.id);
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ sliceCount: 2, selected: true, classification: null, description: 'T1 MPRAGE' });
    expect(series[0]!.seriesInstanceUID).not.toBe('1.2.826.0.1.3680043.9.9999.3');

    const plan = await listDatasetSeries(input, deps);
    expect(plan).toEqual({ seriesIds: [series[0]!.id], maxConcurrency: 10 });
    await classifyOneSeries({ ...input, seriesId: plan.seriesIds[0]! }, deps);
    const classified = (await p.datasets.listSeries('h1', d.id))[0]!;
    expect(classified.classification).toMatchObject({ source: 'AI', classifiedType: expect.any(String) });
    expect(typeof classified.lowConfidence).toBe('boolean');
    expect((await p.datasets.get('h1', d.id))!.status).toBe('CLASSIFYING');

    // An execution started again from its first state after a stop (docs/local-twin.md) finds the dataset past
    // those stages: they go on without moving it back, and nothing is de-identified twice.
    await p.datasets.transition('h1', d.id, ['CLASSIFYING'], 'PROCESSING');
    await deidentifyStudy(input, deps);
    await listDatasetSeries(input, deps);
    expect((await p.datasets.get('h1', d.id))!.status).toBe('PROCESSING');
    expect(p.audit.events.filter((e) => e.action === 'DATASET_DEIDENTIFIED')).toHaveLength(1);
  });

  it("stores each series' headers in one object that ClassifySeries reads instead of every file, to the same answer", async () => {
    // Prepare: three slices of one series, de-identified
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    for (const n of [3, 1, 2])
      await p.objects.put(
        'uploads',
        `h1/${d.id}/raw/${n - 1}`,
        buildDicom({
          extra: [
            { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.9.9999.1.${n}` },
            { tag: '00200013', vr: 'IS', value: String(n) },
          ],
        }),
      );
    const input = { hospitalId: 'h1', datasetId: d.id, runId: 'r1' };
    await deidentifyStudy(input, deps);
    await p.datasets.transition('h1', d.id, ['ANONYMIZING'], 'CLASSIFYING');
    const [series] = await p.datasets.listSeries('h1', d.id);
    const bundleKey = studyKeys.seriesHeaders('h1', d.id, series!.seriesInstanceUID);
    const copies = await p.objects.list('studies', studyKeys.series('h1', d.id, series!.seriesInstanceUID));
    const fromFiles = await Promise.all(
      copies.map(async ({ key }) => {
        const bytes = await p.objects.get('studies', key);
        return withoutPixelData(parseDicom(bytes), bytes);
      }),
    );
    const reads: string[] = [];
    const get = p.objects.get.bind(p.objects);
    p.objects.get = async (bucket, key) => {
      reads.push(key);
      return get(bucket, key);
    };

    // Act: classify from the bundle, then again as a dataset de-identified before bundles existed
    await classifyOneSeries({ ...input, seriesId: series!.id }, deps);
    const fromBundle = (await p.datasets.listSeries('h1', d.id))[0]!.classification;
    const bundleReads = reads.splice(0);
    const bundled = unpackHeaders(await get('studies', bundleKey));
    p.objects.objects.delete(`studies/${bundleKey}`);
    await p.datasets.updateSeries('h1', d.id, series!.id, { classification: null });
    await classifyOneSeries({ ...input, seriesId: series!.id }, deps);
    const fromEachFile = (await p.datasets.listSeries('h1', d.id))[0]!.classification;

    // Assess: the bundle holds each copy's header, and both ways classify alike
    // (this fake lists keys in numeric order, S3 by code unit as the bundle is written: compared as a set here)
    const text = (header: Uint8Array) => new TextDecoder('latin1').decode(header);
    expect(bundled.map(text).sort()).toEqual(fromFiles.map(text).sort());
    expect(copies).toHaveLength(3);
    expect(bundleReads).toEqual([bundleKey]);
    expect(reads.sort()).toEqual(copies.map((c) => c.key).sort());
    expect(fromEachFile).toMatchObject({
      classifiedType: fromBundle!.classifiedType,
      confidence: fromBundle!.confidence,
      source: 'AI',
    });
  });

  it('rejects a file whose retained UIDs are not PS3.5 UIDs, so they never become an object key', async () => {
    // Prepare
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    // The hospital's policy lets uploaders keep UIDs, so a file's own UIDs reach the engine unchanged.
    await p.policies.put('h1', {
      ...DEFAULT_DEIDENTIFICATION_POLICY,
      uploaderMayChange: ['retainUids'],
      updatedAt: '2026-01-01T00:00:00.000Z',
      updatedByUserId: 'admin',
    });
    const d = await createDataset(
      { ...NEW_DATASET, anonymization: { ...NEW_DATASET.anonymization, retainUids: true } },
      caller('TEAM_MEMBER'),
      p,
    );
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    const withInstanceUid = (uid: string) => buildDicom({ extra: [{ tag: '00080018', vr: 'UI', value: uid }] });
    await p.objects.put('uploads', `h1/${d.id}/raw/0`, withInstanceUid('1.2.826.0.1.3680043.9.9999.1.1'));
    await p.objects.put('uploads', `h1/${d.id}/raw/1`, withInstanceUid('1.2.3.DOE/../x'));

    // Act
    await deidentifyStudy({ hospitalId: 'h1', datasetId: d.id, runId: 'r1' }, deps);

    // Assess
    const keys = [...p.objects.objects.keys()].sort();
    expect(keys).toEqual([
      `studies/h1/${d.id}/1.2.826.0.1.3680043.9.9999.3/1.2.826.0.1.3680043.9.9999.1.1.dcm`,
      `studies/h1/${d.id}/headers/1.2.826.0.1.3680043.9.9999.3.bin`,
    ]);
    expect((await p.datasets.get('h1', d.id))!.fileErrors).toEqual([{ fileIndex: 1, message: 'DICOM parsing failed' }]);
  });
  it('rejects a file over the engine limits on its own, with the catalogue wording, and keeps the others', async () => {
    // Prepare
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    let nested: BuiltElement[] = [{ tag: '00081030', vr: 'LO', value: 'T1' }];
    for (let level = 0; level <= DICOM_LIMITS.maxSequenceDepth; level++)
      nested = [{ tag: '00081115', vr: 'SQ', value: [nested] }];
    await p.objects.put('uploads', `h1/${d.id}/raw/0`, buildDicom());
    await p.objects.put('uploads', `h1/${d.id}/raw/1`, buildDicom({ extra: nested }));

    // Act
    await deidentifyStudy({ hospitalId: 'h1', datasetId: d.id, runId: 'r1' }, deps);

    // Assess
    const dataset = (await p.datasets.get('h1', d.id))!;
    expect(dataset.status).toBe('ANONYMIZING');
    expect(dataset.fileErrors).toEqual([
      { fileIndex: 1, message: `DICOM sequences are nested deeper than ${DICOM_LIMITS.maxSequenceDepth} levels` },
    ]);
    expect([...p.objects.objects.keys()].filter((k) => k.startsWith('studies/') && k.endsWith('.dcm'))).toHaveLength(1);
  });
});

describe('burned-in text', () => {
  it('flags a series by BurnedInAnnotation, secondary capture or encapsulated document SOP class, or ImageType', async () => {
    const p = ports();
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    const files = buildStudy([
      { seriesNumber: 1, slices: 1 },
      { seriesNumber: 2, slices: 1, burnedInAnnotation: 'YES' },
      { seriesNumber: 3, slices: 1, burnedInAnnotation: 'NO' },
      { seriesNumber: 4, slices: 1, sopClassUID: '1.2.840.10008.5.1.4.1.1.7.4' },
      { seriesNumber: 5, slices: 1, sopClassUID: '1.2.840.10008.5.1.4.1.1.104.1' },
      { seriesNumber: 6, slices: 1, imageType: 'DERIVED\\PRIMARY\\SCREEN SAVE' },
      { seriesNumber: 7, slices: 1, imageType: 'DERIVED\\SECONDARY' },
    ]);
    for (const [i, file] of files.entries()) await p.objects.put('uploads', `h1/${d.id}/raw/${i}`, file.bytes);

    await deidentifyStudy({ hospitalId: 'h1', datasetId: d.id, runId: 'r1' }, deps);

    const series = (await p.datasets.listSeries('h1', d.id)).sort((a, b) => a.seriesNumber - b.seriesNumber);
    expect(series.map((s) => s.burnedInText?.reasons ?? [])).toEqual([
      [],
      ['BURNED_IN_ANNOTATION'],
      [],
      ['SECONDARY_CAPTURE'],
      ['ENCAPSULATED_DOCUMENT'],
      ['SCREEN_SAVE'],
      ['SECONDARY_IMAGE'],
    ]);
    expect(series.map(isHeldForBurnedInText)).toEqual([false, true, false, true, true, true, true]);
  });

  it("counts the de-identified dataset and its held series on the hospital's compliance counters, once", async () => {
    const p = ports();
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Hospital h1', createdAt: '', updatedAt: '' });
    const deps = { ...p, pseudonymSecret: async () => 'pipeline-secret' } as PipelineDeps;
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    const files = buildStudy([
      { seriesNumber: 1, slices: 1 },
      { seriesNumber: 2, slices: 1, burnedInAnnotation: 'YES' },
      { seriesNumber: 3, slices: 1, imageType: 'DERIVED\\SECONDARY' },
    ]);
    for (const [i, file] of files.entries()) await p.objects.put('uploads', `h1/${d.id}/raw/${i}`, file.bytes);
    const input = { hospitalId: 'h1', datasetId: d.id, runId: 'r1' };

    await deidentifyStudy(input, deps);
    // A rerun of the stage (a retried task) stops at deidentifiedAt and counts nothing again.
    await deidentifyStudy(input, deps).catch(() => undefined);

    const hospital = await p.directory.getHospital('h1');
    expect(hospital).toMatchObject({
      deidentifiedCount: 1,
      basicProfileOnlyCount: 1,
      seriesHeldCount: 2,
      datasetsWithHeldSeriesCount: 1,
    });
    // An absent counter reads 0 (docs/domain.md#counters).
    expect(hospital?.seriesReleasedCount ?? 0).toBe(0);
  });
});
