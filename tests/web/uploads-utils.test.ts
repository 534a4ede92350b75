import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { discoverFiles, isIgnorable, type PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import { matchSessionFiles, pathInPickedFolder } from '#web/features/uploads/utils/pending-upload.ts';
import { newUploadSalt, uploadFileKey } from '#shared/client/file-key.ts';
import { normaliseBidsChoice } from '#web/features/uploads/utils/bids-categories.ts';
import { EMPTY_PATIENT_CONTEXT, validatePatientContext } from '#web/features/uploads/utils/patient-context.ts';
import {
  addNotification,
  MAX_NOTIFICATIONS,
  type AppNotification,
} from '#web/features/notifications/hooks/use-notifications.tsx';

function picked(dir: string, names: string[]): PickedFile[] {
  return names.map((name) => ({ path: `study/${name}`, file: new File([readFileSync(join(dir, name))], name) }));
}

describe('upload wizard logic', () => {
  it('discovers a real series in batches and lists a non-DICOM file with its message', async () => {
    // Prepare
    const dir = join(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom');
    const names = readdirSync(dir).sort().slice(0, 45);
    const files = [...picked(dir, names), { path: 'study/notes.txt', file: new File(['not an image'], 'notes.txt') }];
    const progress: number[] = [];

    // Act
    const discovery = await discoverFiles(files, { pauseMs: 0, onProgress: (done) => progress.push(done) });

    // Assess
    expect(progress).toEqual([20, 40, 46]);
    expect(discovery.files).toHaveLength(45);
    expect(discovery.rejected).toEqual([{ path: 'study/notes.txt', sizeBytes: 12, message: 'Not a DICOM file' }]);
    expect(discovery.series).toHaveLength(1);
    expect(discovery.series[0]!.fileCount).toBe(45);
    expect(discovery.series[0]!.files.every((f) => f.fileName.startsWith('study/'))).toBe(true);
  });

  it('ignores hidden system files that folder pickers include', () => {
    expect(isIgnorable('study/.DS_Store')).toBe(true);
    expect(isIgnorable('study/Thumbs.db')).toBe(true);
    expect(isIgnorable('study/IM0001')).toBe(false);
  });

  it("matches re-picked files to the open session's keys by path and size, in file-index order", async () => {
    const salt = 'salt-of-this-upload';
    const keyOf = (path: string, size: number) => uploadFileKey(salt, pathInPickedFolder(path), size);
    const session = [
      { fileKey: await keyOf('study/a.dcm', 3), sizeBytes: 3 },
      { fileKey: await keyOf('study/b.dcm', 2), sizeBytes: 2 },
    ];
    const again = [
      { path: 'study/b.dcm', file: new File(['bb'], 'b.dcm') },
      { path: 'study/a.dcm', file: new File(['aaa'], 'a.dcm') },
    ];
    const resumed = await matchSessionFiles(session, again, salt);
    expect(resumed.missing).toBe(0);
    expect(resumed.matched.map((m) => [m.path, m.fileKey])).toEqual([
      ['study/a.dcm', session[0]!.fileKey],
      ['study/b.dcm', session[1]!.fileKey],
    ]);
    const picksFilesNotFolder = [
      { path: 'a.dcm', file: new File(['aaa'], 'a.dcm') },
      { path: 'b.dcm', file: new File(['bb'], 'b.dcm') },
    ];
    expect((await matchSessionFiles(session, picksFilesNotFolder, salt)).missing).toBe(0);
    const picksFromHigherUp = again.map((p) => ({ ...p, path: `exports/${p.path}` }));
    expect((await matchSessionFiles(session, picksFromHigherUp, salt)).missing).toBe(0);
    const changed = [{ path: 'study/a.dcm', file: new File(['aaaa'], 'a.dcm') }];
    expect((await matchSessionFiles(session, changed, salt)).missing).toBe(2);
    expect((await matchSessionFiles(session, again, 'another-upload')).missing).toBe(2);
  });

  it('keys files with 64 lowercase hex characters that name no path, different for each salt', async () => {
    const key = await uploadFileKey('s1', 'DOE^JANE/IM0001.dcm', 3);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe(await uploadFileKey('s2', 'DOE^JANE/IM0001.dcm', 3));
    expect(newUploadSalt()).not.toBe(newUploadSalt());
  });

  it('keeps a BIDS suggestion that exists in the lists and falls back to anat/T1w', () => {
    expect(normaliseBidsChoice('dwi', 'dwi')).toEqual({ category: 'dwi', subcategory: 'dwi' });
    expect(normaliseBidsChoice('anat', 'unknown')).toEqual({ category: 'anat', subcategory: 'T1w' });
    expect(normaliseBidsChoice('nope', 'x')).toEqual({ category: 'anat', subcategory: 'T1w' });
  });

  it('requires every patient-context field and both consents, research consent optional', () => {
    const empty = validatePatientContext(EMPTY_PATIENT_CONTEXT);
    expect(empty.ok).toBe(false);
    if (!empty.ok) {
      expect(Object.keys(empty.errors).sort()).toEqual([
        'clinicalIndication',
        'department',
        'hipaaDisclosure',
        'mrn',
        'orderingPhysician',
        'patientConsent',
        'studyDescription',
        'studyType',
      ]);
      expect(empty.errors.mrn).toBe('Required');
    }
    const full = validatePatientContext({
      ...EMPTY_PATIENT_CONTEXT,
      mrn: 'M1',
      studyType: 'DIAGNOSTIC',
      studyDescription: 'd',
      clinicalIndication: 'c',
      orderingPhysician: 'p',
      department: 'r',
      patientConsent: true,
      hipaaDisclosure: true,
    });
    expect(full.ok).toBe(true);
    const chosen = validatePatientContext({
      ...EMPTY_PATIENT_CONTEXT,
      mrn: 'M1',
      studyType: 'DIAGNOSTIC',
      studyDescription: 'd',
      clinicalIndication: 'c',
      orderingPhysician: 'p',
      department: 'Radiology',
      departmentId: 'dept-northside-radiology',
      patientConsent: true,
      hipaaDisclosure: true,
    });
    expect(chosen.ok && chosen.value).toMatchObject({
      department: 'Radiology',
      departmentId: 'dept-northside-radiology',
    });
    expect(full.ok && 'departmentId' in full.value && full.value.departmentId).toBeFalsy();
  });

  it('keeps the 50 newest notifications, newest first', () => {
    let list: AppNotification[] = [];
    for (let i = 0; i < 60; i++) list = addNotification(list, { title: `n${i}` });
    expect(MAX_NOTIFICATIONS).toBe(50);
    expect(list).toHaveLength(50);
    expect(list[0]!.title).toBe('n59');
    expect(list[49]!.title).toBe('n10');
  });
});
