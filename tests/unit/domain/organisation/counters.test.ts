import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { deleteDataset } from '#shared/domain/datasets/delete-dataset.ts';
import { restoreDataset } from '#shared/domain/datasets/recycle-bin.ts';
import { completeUpload } from '#shared/domain/uploads/complete-upload.ts';
import { openUploadSession } from '#shared/domain/uploads/open-upload-session.ts';
import { fileKeyOf } from '#tests/helpers/file-keys.ts';
import { NEW_DATASET, runRetention } from '#tests/unit/domain/fakes.ts';
import { as, organisationPorts } from './fixtures.ts';
import { packArchive } from '#tests/helpers/study-archive.ts';

const member = as('TEAM_MEMBER');

describe('datasets keep their department and move the counters', () => {
  it("stores the department chosen from the hospital's departments, with its name", async () => {
    const deps = organisationPorts();
    const created = await createDataset({ ...NEW_DATASET, department: 'typed', departmentId: 'd1' }, member, deps);
    expect(created).toMatchObject({ departmentId: 'd1', department: 'Radiology', teamId: 't1' });
    const old = await createDataset(NEW_DATASET, member, deps);
    expect(old).toMatchObject({ departmentId: null, department: 'Radiology' });
    await expect(
      createDataset({ ...NEW_DATASET, departmentId: 'another-hospitals' }, member, deps),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'departmentId' }] });
  });

  it('counts datasets on create and delete, and the bytes stored once the upload completes', async () => {
    const deps = organisationPorts();
    const hospital = () => deps.org.hospitals.get('h1')!;
    const team = () => deps.org.teams.get('h1/t1')!;
    const d = await createDataset(NEW_DATASET, member, deps);
    expect([hospital().datasetCount, team().datasetCount]).toEqual([1, 1]);

    const session = await openUploadSession(d.id, [{ fileKey: fileKeyOf('a.dcm'), sizeBytes: 700 }], member, deps);
    const record = deps.uploads.sessions.get(session.sessionId)!;
    deps.objects.uploadPart(record.multipartUploadId, 1, packArchive([new Uint8Array(700)]));
    await completeUpload(session.sessionId, member, deps);
    await completeUpload(session.sessionId, member, deps);
    expect([hospital().storageUsedBytes, team().storageUsedBytes]).toEqual([700, 700]);

    await deps.datasets.update('h1', d.id, { status: 'COMPLETE' }, ['UPLOADING']);
    await deleteDataset(d.id, {}, as('TEAM_LEAD'), deps);
    expect([hospital().datasetCount, team().datasetCount]).toEqual([0, 0]);
    // In the recycle bin its bytes are still stored, so still counted; the purge gives them back.
    expect([hospital().storageUsedBytes, team().storageUsedBytes]).toEqual([700, 700]);
    await restoreDataset(d.id, as('HOSPITAL_ADMIN'), deps);
    expect([hospital().datasetCount, team().datasetCount]).toEqual([1, 1]);
    await deleteDataset(d.id, {}, as('TEAM_LEAD'), deps);
    expect((await runRetention(deps, '2099-01-01T00:00:00.000Z')).purged).toEqual([d.id]);
    expect([hospital().storageUsedBytes, team().storageUsedBytes]).toEqual([0, 0]);
  });
});

describe("the dashboards' counters", () => {
  it('count distinct patients once and move the pipeline groups with each status change and delete', async () => {
    const deps = organisationPorts();
    const hospital = () => deps.org.hospitals.get('h1')!;
    const team = () => deps.org.teams.get('h1/t1')!;
    const d = await createDataset(NEW_DATASET, member, deps);
    await createDataset(NEW_DATASET, member, deps);
    await createDataset({ ...NEW_DATASET, mrn: 'MRN-OTHER-2' }, member, deps);
    expect([hospital().patientCount, team().patientCount]).toEqual([2, 2]);

    await openUploadSession(d.id, [{ fileKey: fileKeyOf('a.dcm'), sizeBytes: 700 }], member, deps);
    expect([hospital().queuedCount, team().queuedCount]).toEqual([1, 1]);
    await deleteDataset(d.id, {}, as('TEAM_LEAD'), deps);
    expect([hospital().queuedCount, team().queuedCount]).toEqual([0, 0]);
  });
});
