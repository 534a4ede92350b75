import { describe, expect, it } from 'vitest';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { canSeeDataset, parseGroups, primaryRole } from '#shared/domain/auth/caller.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { deleteDataset, NO_REASON_GIVEN } from '#shared/domain/datasets/delete-dataset.ts';
import { setLegalHold } from '#shared/domain/datasets/legal-hold.ts';
import { listRecycleBin, restoreDataset } from '#shared/domain/datasets/recycle-bin.ts';
import { getDataset } from '#shared/domain/datasets/get-dataset.ts';
import { listDatasets } from '#shared/domain/datasets/list-datasets.ts';
import { overrideClassification } from '#shared/domain/datasets/override-classification.ts';
import { retryDataset } from '#shared/domain/datasets/retry-dataset.ts';
import { selectSeries } from '#shared/domain/datasets/select-series.ts';
import { updateDataset } from '#shared/domain/datasets/update-dataset.ts';
import {
  AccessDeniedError,
  ConflictError,
  InvalidStateError,
  NotFoundError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { caller, NEW_DATASET, ports, runRetention } from '#tests/unit/domain/fakes.ts';

const directory = {
  getHospital: async () => ({ id: 'h1', slug: 'h', name: 'Hospital One', createdAt: '', updatedAt: '' }),
} as never;

async function created(p: ReturnType<typeof ports>, as = caller('TEAM_MEMBER')) {
  return createDataset(NEW_DATASET, as, p);
}

describe('parseGroups', () => {
  it.each([
    ['[TEAM_LEAD]', ['TEAM_LEAD']],
    ['[TEAM_LEAD HOSPITAL_ADMIN]', ['TEAM_LEAD', 'HOSPITAL_ADMIN']],
    ['TEAM_MEMBER,GUEST', ['TEAM_MEMBER', 'GUEST']],
    [['GUEST'], ['GUEST']],
    ['', []],
    [undefined, []],
    ['[admins NOT_A_ROLE]', []],
  ])('reads %j', (claim, expected) => {
    expect(parseGroups(claim)).toEqual(expected);
  });

  it('takes the strongest role when a user is in several groups', () => {
    expect(primaryRole(['GUEST', 'TEAM_LEAD'])).toBe('TEAM_LEAD');
  });
});

describe('team scoping', () => {
  it('lets hospital admins see every team and members only their own, never another hospital', () => {
    expect(canSeeDataset(caller('HOSPITAL_ADMIN'), { hospitalId: 'h1', teamId: 'other' })).toBe(true);
    expect(canSeeDataset(caller('TEAM_MEMBER'), { hospitalId: 'h1', teamId: 'other' })).toBe(false);
    expect(canSeeDataset(caller('TEAM_MEMBER'), { hospitalId: 'h1', teamId: 't1' })).toBe(true);
    expect(canSeeDataset(caller('HOSPITAL_ADMIN'), { hospitalId: 'h2', teamId: 't1' })).toBe(false);
  });
});

describe('createDataset', () => {
  it('stores a keyed alias instead of the MRN, in status CREATED, and audits it', async () => {
    // Prepare
    const p = ports();
    // Act
    const dataset = await created(p);
    // Assess
    expect(dataset).toMatchObject({
      status: 'CREATED',
      hospitalId: 'h1',
      teamId: 't1',
      patientAlias: 'PT-h1-10',
      consentObtained: true,
    });
    expect(JSON.stringify([...p.datasets.rows.values()])).not.toContain('MRN-123456');
    expect(JSON.stringify(p.audit.events)).not.toContain('MRN-123456');
    expect(p.audit.events.map((e) => e.action)).toEqual(['DATASET_CREATED']);
  });

  it('refuses a caller without UPLOAD_DICOM', async () => {
    await expect(created(ports(), caller('TEAM_MEMBER', { permissions: ['VIEW_DATASETS'] }))).rejects.toBeInstanceOf(
      AccessDeniedError,
    );
  });
});

describe('status changes', () => {
  it('are conditional on the previous status and audited', async () => {
    const p = ports();
    const d = await created(p);
    await changeStatus(p, {
      hospitalId: 'h1',
      datasetId: d.id,
      from: ['CREATED'],
      to: 'UPLOADING',
      actorUserId: 'u',
      actorName: 'U',
    });
    await expect(
      changeStatus(p, {
        hospitalId: 'h1',
        datasetId: d.id,
        from: ['CREATED'],
        to: 'UPLOADING',
        actorUserId: 'u',
        actorName: 'U',
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(p.audit.events.filter((e) => e.action === 'STATUS_CHANGED')).toHaveLength(1);
  });

  it('never skip a stage', async () => {
    const p = ports();
    const d = await created(p);
    await expect(
      changeStatus(p, {
        hospitalId: 'h1',
        datasetId: d.id,
        from: ['CREATED'],
        to: 'COMPLETE',
        actorUserId: 'u',
        actorName: 'U',
      }),
    ).rejects.toThrow(/Illegal transition/);
  });
});

describe('reading datasets', () => {
  it('answers DATASET_NOT_FOUND for another team and another hospital', async () => {
    const p = ports();
    const d = await created(p);
    await expect(getDataset(d.id, caller('TEAM_LEAD', { teamId: 't2' }), { ...p, directory })).rejects.toMatchObject({
      code: 'DATASET_NOT_FOUND',
    });
    await expect(
      getDataset(d.id, caller('HOSPITAL_ADMIN', { hospitalId: 'h2' }), { ...p, directory }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const detail = await getDataset(d.id, caller('HOSPITAL_ADMIN'), { ...p, directory });
    expect(detail).toMatchObject({ id: d.id, hospitalName: 'Hospital One', series: [], processedAssets: [] });
  });

  it("presigns only assets stored under the dataset's own prefix, never a key of another dataset or hospital", async () => {
    const p = ports();
    const d = await created(p);
    const asset = (id: string, objectKey: string, hospitalId = 'h1') =>
      p.datasets.putAsset({
        id,
        datasetId: d.id,
        hospitalId,
        type: 'THUMBNAIL',
        label: id,
        byteSize: 1,
        mimeType: 'image/png',
        metadata: {},
        createdAt: '2026-02-01T10:00:00.000Z',
        bucket: 'assets',
        objectKey,
      });
    await asset('own', `h1/${d.id}/s1/thumb.png`);
    await asset('other-dataset', 'h1/ds-other/s1/thumb.png');
    await asset('other-hospital', `h2/${d.id}/s1/thumb.png`);
    await asset('climbs-out', `h1/${d.id}/../ds-other/s1/thumb.png`);
    const detail = await getDataset(d.id, caller('TEAM_MEMBER'), { ...p, directory });
    const urls = Object.fromEntries(detail.processedAssets.map((a) => [a.id, a.url]));
    expect(urls.own).toContain(`h1/${d.id}/s1/thumb.png`);
    expect(urls).toMatchObject({ 'other-dataset': undefined, 'other-hospital': undefined, 'climbs-out': undefined });
  });

  it("lists a team lead's team only and pages with a token bound to the query", async () => {
    const p = ports();
    for (let i = 0; i < 8; i++) await created(p);
    await created(p, caller('TEAM_MEMBER', { teamId: 't2' }));
    const first = await listDatasets({ limit: 6 }, caller('TEAM_LEAD'), p);
    expect(first.items).toHaveLength(6);
    expect(first.items.every((d) => d.teamId === 't1')).toBe(true);
    const second = await listDatasets({ limit: 6, nextToken: first.nextToken! }, caller('TEAM_LEAD'), p);
    expect(second.items).toHaveLength(2);
    expect(second.nextToken).toBeNull();
    await expect(
      listDatasets({ limit: 6, status: 'FAILED', nextToken: first.nextToken! }, caller('TEAM_LEAD'), p),
    ).rejects.toBeInstanceOf(ValidationError);
    expect((await listDatasets({ limit: 48 }, caller('HOSPITAL_ADMIN'), p)).items).toHaveLength(9);
  });
});

describe('updateDataset', () => {
  it('edits the context while CREATED, re-deriving the alias from a new MRN', async () => {
    const p = ports();
    const d = await created(p);
    const updated = await updateDataset(
      d.id,
      { studyDescription: 'Follow-up', mrn: 'MRN-9' },
      caller('TEAM_MEMBER'),
      p,
    );
    expect(updated).toMatchObject({ studyDescription: 'Follow-up', patientAlias: 'PT-h1-5' });
  });

  it('refuses once the upload has started, and refuses members who do not own the dataset', async () => {
    const p = ports();
    const d = await created(p);
    await expect(
      updateDataset(d.id, { studyDescription: 'x' }, caller('TEAM_MEMBER', { userId: 'someone-else' }), p),
    ).rejects.toBeInstanceOf(AccessDeniedError);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    await expect(updateDataset(d.id, { studyDescription: 'x' }, caller('TEAM_MEMBER'), p)).rejects.toBeInstanceOf(
      InvalidStateError,
    );
  });
});

describe('series', () => {
  async function withSeries() {
    const p = ports();
    const d = await created(p);
    for (const [id, n] of [
      ['s1', 1],
      ['s2', 2],
    ] as const) {
      await p.datasets.putSeries({
        id,
        datasetId: d.id,
        hospitalId: 'h1',
        seriesInstanceUID: id,
        description: `S${n}`,
        seriesNumber: n,
        modality: 'MR',
        sliceCount: 1,
        sizeBytes: 1,
        selected: true,
        createdAt: '',
        lowConfidence: true,
        classification: {
          classifiedType: 'T2',
          confidence: 0.4,
          source: 'AI',
          reasons: ['TE long'],
          bids: { datatype: 'anat', suffix: 'T2w' },
          createdAt: '',
        },
      });
    }
    return { p, d };
  }

  it('keeps the model label beside a manual override', async () => {
    const { p, d } = await withSeries();
    const series = await overrideClassification(d.id, 's1', 'FLAIR', caller('TEAM_LEAD'), p);
    expect(series.classification).toMatchObject({
      classifiedType: 'FLAIR',
      source: 'MANUAL',
      modelType: 'T2',
      modelConfidence: 0.4,
      createdByUserId: 'user-team_lead',
      bids: { suffix: 'FLAIR' },
    });
    expect(series.lowConfidence).toBe(false);
    const again = await overrideClassification(d.id, 's1', 'T1', caller('TEAM_LEAD'), p);
    expect(again.classification).toMatchObject({ classifiedType: 'T1', modelType: 'T2' });
    await expect(overrideClassification(d.id, 'nope', 'T1', caller('TEAM_LEAD'), p)).rejects.toMatchObject({
      code: 'SERIES_NOT_FOUND',
    });
  });

  it("refuses a teammate's series changes: only the owner, their lead or an admin may select or override", async () => {
    const { p, d } = await withSeries();
    const teammate = caller('TEAM_MEMBER', { userId: 'someone-else' });
    await expect(selectSeries(d.id, [{ seriesId: 's1', selected: false }], teammate, p)).rejects.toBeInstanceOf(
      AccessDeniedError,
    );
    await expect(overrideClassification(d.id, 's1', 'T1', teammate, p)).rejects.toBeInstanceOf(AccessDeniedError);
    expect((await p.datasets.listSeries('h1', d.id)).map((s) => [s.selected, s.classification?.source])).toEqual([
      [true, 'AI'],
      [true, 'AI'],
    ]);
    await overrideClassification(d.id, 's1', 'T1', caller('TEAM_MEMBER'), p);
    await overrideClassification(d.id, 's1', 'T2', caller('TEAM_LEAD', { userId: 'lead-2' }), p);
    await selectSeries(d.id, [{ seriesId: 's2', selected: false }], caller('HOSPITAL_ADMIN'), p);
  });

  it('refuses series changes once processing has started (INVALID_STATE), also after COMPLETE', async () => {
    for (const status of ['PROCESSING', 'COMPLETE', 'FAILED'] as const) {
      const { p, d } = await withSeries();
      await p.datasets.update('h1', d.id, { status }, ['CREATED']);
      for (const as of [caller('TEAM_MEMBER'), caller('HOSPITAL_ADMIN')]) {
        await expect(overrideClassification(d.id, 's1', 'T1', as, p), status).rejects.toBeInstanceOf(InvalidStateError);
        await expect(selectSeries(d.id, [{ seriesId: 's1', selected: false }], as, p), status).rejects.toBeInstanceOf(
          InvalidStateError,
        );
      }
    }
  });

  it('keeps at least one series selected', async () => {
    const { p, d } = await withSeries();
    const result = await selectSeries(d.id, [{ seriesId: 's1', selected: false }], caller('TEAM_MEMBER'), p);
    expect(result.items.map((s) => s.selected)).toEqual([false, true]);
    await expect(
      selectSeries(d.id, [{ seriesId: 's2', selected: false }], caller('TEAM_MEMBER'), p),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('deleteDataset and retryDataset', () => {
  it("needs DELETE_DATA on one's own dataset (a lead the team's), moves it to the recycle bin, and the purge removes its objects after 30 days", async () => {
    const p = ports();
    const d = await created(p);
    for (const bucket of ['uploads', 'studies', 'assets'] as const)
      await p.objects.put(bucket, `h1/${d.id}/x`, new Uint8Array([1]));
    await expect(deleteDataset(d.id, {}, caller('TEAM_MEMBER'), p)).rejects.toBeInstanceOf(AccessDeniedError);
    // DELETE_DATA alone does not reach a teammate's dataset (docs/roles-and-permissions.md#dataset-management).
    const teammate = caller('TEAM_MEMBER', { userId: 'user-teammate', permissions: ['VIEW_DATASETS', 'DELETE_DATA'] });
    await expect(deleteDataset(d.id, {}, teammate, p)).rejects.toBeInstanceOf(AccessDeniedError);
    await deleteDataset(d.id, { reason: 'Duplicate upload' }, caller('TEAM_LEAD'), p);
    expect(await p.datasets.get('h1', d.id)).toBeUndefined();
    expect(p.objects.objects.size).toBe(3);
    expect(p.audit.events.at(-1)).toMatchObject({
      action: 'DATASET_DELETED',
      datasetId: d.id,
      actorUserId: 'user-team_lead',
      details: { reason: 'Duplicate upload', purgeAfter: '2026-03-03T10:00:00.000Z' },
    });
    const early = await runRetention(p);
    expect(early.purged).toEqual([]);
    expect((await runRetention(p, '2026-03-04T00:00:00.000Z')).purged).toEqual([d.id]);
    expect(p.objects.objects.size).toBe(0);
    expect(p.datasets.rows.size).toBe(0);
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'DATASET_PURGED', details: { objectsDeleted: 3 } });
    // The next day's job finds nothing left to do.
    expect((await runRetention(p, '2026-03-05T00:00:00.000Z')).results).toEqual([]);
  });

  it('lets a member with DELETE_DATA delete their own, and a hospital admin restore it as it was', async () => {
    const p = ports();
    const owner = caller('TEAM_MEMBER', { permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'DELETE_DATA'] });
    const d = await created(p, owner);
    await deleteDataset(d.id, {}, owner, p);
    const bin = await listRecycleBin({ limit: 10 }, caller('HOSPITAL_ADMIN'), p);
    expect(bin.items).toMatchObject([{ id: d.id, deletionReason: NO_REASON_GIVEN, deletedByUserId: owner.userId }]);
    await expect(listRecycleBin({ limit: 10 }, caller('TEAM_LEAD'), p)).rejects.toBeInstanceOf(AccessDeniedError);
    await expect(restoreDataset(d.id, caller('TEAM_LEAD'), p)).rejects.toBeInstanceOf(AccessDeniedError);
    const restored = await restoreDataset(d.id, caller('HOSPITAL_ADMIN'), p);
    expect(restored).not.toHaveProperty('deletedAt');
    expect((await p.datasets.get('h1', d.id))?.status).toBe('CREATED');
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'DATASET_RESTORED', datasetId: d.id });
    await expect(restoreDataset(d.id, caller('HOSPITAL_ADMIN'), p)).rejects.toMatchObject({
      code: 'DATASET_NOT_FOUND',
    });
  });

  it('refuses deleting a dataset under legal hold, by hand and by the purge, until the hold is lifted', async () => {
    const p = ports();
    const d = await created(p);
    await expect(
      setLegalHold(d.id, { on: true, reason: 'Litigation 42' }, caller('TEAM_MEMBER'), p),
    ).rejects.toBeInstanceOf(AccessDeniedError);
    const held = await setLegalHold(d.id, { on: true, reason: 'Litigation 42' }, caller('TEAM_LEAD'), p);
    expect(held.legalHold).toMatchObject({ reason: 'Litigation 42', byUserId: 'user-team_lead' });
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'LEGAL_HOLD_PLACED', details: { reason: 'Litigation 42' } });
    await expect(deleteDataset(d.id, {}, caller('HOSPITAL_ADMIN'), p)).rejects.toMatchObject({ code: 'LEGAL_HOLD' });
    await setLegalHold(d.id, { on: false, reason: 'Settled' }, caller('HOSPITAL_ADMIN'), p);
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'LEGAL_HOLD_LIFTED', details: { reason: 'Settled' } });
    await deleteDataset(d.id, {}, caller('HOSPITAL_ADMIN'), p);
    expect(await p.datasets.get('h1', d.id)).toBeUndefined();
  });

  it('restarts only a FAILED dataset, clearing the reason and starting a new run', async () => {
    const p = ports();
    const d = await created(p);
    await expect(retryDataset(d.id, caller('TEAM_MEMBER'), p)).rejects.toBeInstanceOf(InvalidStateError);
    await p.datasets.update('h1', d.id, { status: 'FAILED', failureReason: 'Processing failed' }, ['CREATED']);
    const retried = await retryDataset(d.id, caller('TEAM_MEMBER'), p);
    expect(retried.status).toBe('UPLOADING');
    expect(retried.failureReason).toBeUndefined();
    expect(p.pipeline.started).toEqual([{ hospitalId: 'h1', datasetId: d.id, runId: expect.any(String) }]);
  });
});

describe('deleteDataset while the pipeline is queued', () => {
  it('refuses an UPLOADING dataset whose upload is complete, and deletes one whose upload is still open', async () => {
    const { openUploadSession } = await import('#shared/domain/uploads/open-upload-session.ts');
    const p = ports();
    const open = await created(p);
    const queued = await created(p);
    await openUploadSession(open.id, [{ fileKey: fileKeyOf('a'), sizeBytes: 1 }], caller('TEAM_MEMBER'), p);
    const session = await openUploadSession(
      queued.id,
      [{ fileKey: fileKeyOf('a'), sizeBytes: 1 }],
      caller('TEAM_MEMBER'),
      p,
    );
    await p.uploads.setSessionStatus('h1', session.sessionId, 'COMPLETE');
    await expect(deleteDataset(queued.id, {}, caller('TEAM_LEAD'), p)).rejects.toBeInstanceOf(InvalidStateError);
    await deleteDataset(open.id, {}, caller('TEAM_LEAD'), p);
    expect(await p.datasets.get('h1', open.id)).toBeUndefined();
  });
});
