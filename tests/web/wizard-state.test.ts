import { describe, expect, it } from 'vitest';
import type { SeriesGroup } from '#shared/dicom/series.ts';
import type { Discovery, PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import { EMPTY_PATIENT_CONTEXT } from '#web/features/uploads/utils/patient-context.ts';
import {
  IDLE_UPLOAD,
  uploadProgressReducer,
  type UploadProgressAction,
} from '#web/features/uploads/utils/upload-progress.ts';
import {
  initialWizardState,
  selectedFiles,
  seriesOfPath,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from '#web/features/uploads/utils/wizard-state.ts';

const VALID_CONTEXT = {
  ...EMPTY_PATIENT_CONTEXT,
  mrn: 'M1',
  studyType: 'DIAGNOSTIC',
  studyDescription: 'Brain',
  clinicalIndication: 'Headache',
  orderingPhysician: 'Dr. A',
  department: 'Radiology',
  patientConsent: true,
  hipaaDisclosure: true,
};

function series(uid: string, paths: string[], datatype = 'dwi', suffix = 'dwi'): SeriesGroup {
  return {
    seriesInstanceUID: uid,
    seriesNumber: 1,
    modality: 'MR',
    seriesDescription: uid,
    studyDate: '',
    files: paths.map((fileName, i) => ({ fileName, instanceNumber: i + 1 }) as SeriesGroup['files'][number]),
    fileCount: paths.length,
    totalSize: paths.length,
    category: 'Diffusion',
    bidsSuggestion: { datatype, suffix } as SeriesGroup['bidsSuggestion'],
  };
}

const DISCOVERY = {
  files: [],
  rejected: [],
  series: [series('s1', ['a/1', 'a/2']), series('s2', ['b/1'], 'nope', 'x')],
  totalBytes: 3,
  elapsedMs: 1,
} as Discovery;
const PICKED: PickedFile[] = ['a/1', 'a/2', 'b/1'].map((path) => ({ path, file: new File(['x'], path) }));

const run = (actions: WizardAction[], from: WizardState = initialWizardState()) => actions.reduce(wizardReducer, from);

describe('upload wizard state', () => {
  it('stays on patient context with the field messages until the context is valid', () => {
    const rejected = run([{ type: 'context-submitted' }]);
    const accepted = run([{ type: 'context-changed', context: VALID_CONTEXT }, { type: 'context-submitted' }]);
    expect([rejected.step, rejected.contextErrors.mrn]).toEqual([0, 'Required']);
    expect([accepted.step, accepted.contextErrors]).toEqual([1, {}]);
  });

  it('selects every discovered series with a BIDS choice the lists hold, and cannot go on without a series', () => {
    // Prepare
    const atDiscovery = run([{ type: 'context-changed', context: VALID_CONTEXT }, { type: 'context-submitted' }]);
    // Act
    const blocked = run([{ type: 'went-forward' }], atDiscovery);
    const atSelection = run(
      [{ type: 'files-discovered', discovery: DISCOVERY, picked: PICKED }, { type: 'went-forward' }],
      atDiscovery,
    );
    const noneSelected = run(
      [
        {
          type: 'choices-changed',
          choices: {
            s1: { ...atSelection.choices.s1!, selected: false },
            s2: { ...atSelection.choices.s2!, selected: false },
          },
        },
        { type: 'went-forward' },
      ],
      atSelection,
    );
    // Assess
    expect(blocked.step).toBe(1);
    expect(atSelection.step).toBe(2);
    expect(atSelection.choices).toEqual({
      s1: { selected: true, bids: { category: 'dwi', subcategory: 'dwi' } },
      s2: { selected: true, bids: { category: 'anat', subcategory: 'T1w' } },
    });
    expect(noneSelected.step).toBe(2);
  });

  it('uploads the files of the selected series only, in series order, each with its series UID', () => {
    const state = run([
      { type: 'files-discovered', discovery: DISCOVERY, picked: PICKED },
      {
        type: 'choices-changed',
        choices: {
          s1: { selected: false, bids: { category: 'dwi', subcategory: 'dwi' } },
          s2: { selected: true, bids: { category: 'anat', subcategory: 'T1w' } },
        },
      },
    ]);
    expect(selectedFiles(state).map((f) => f.path)).toEqual(['b/1']);
    expect(seriesOfPath(state).get('a/2')).toBe('s1');
  });

  it('goes back on steps 1 to 3 only, and "Upload Another" starts over on step 0 keeping the uploader choice', () => {
    // Prepare
    const uploading = run([
      { type: 'context-changed', context: VALID_CONTEXT },
      { type: 'enhanced-changed', enhanced: true },
      { type: 'files-discovered', discovery: DISCOVERY, picked: PICKED },
      { type: 'upload-started', datasetId: 'd1', files: PICKED },
    ]);
    // Act
    const afterBack = run([{ type: 'went-back' }], uploading);
    const fromAnonymization = run([{ type: 'went-back' }], { ...uploading, step: 3 });
    const reset = run([{ type: 'reset' }], uploading);
    // Assess
    expect([uploading.step, uploading.datasetId, uploading.draftId]).toEqual([4, 'd1', 'd1']);
    expect(afterBack.step).toBe(4);
    expect(fromAnonymization.step).toBe(2);
    expect([reset.step, reset.context, reset.datasetId, reset.discovery, reset.enhanced]).toEqual([
      0,
      EMPTY_PATIENT_CONTEXT,
      undefined,
      undefined,
      true,
    ]);
  });

  it('resumes a pending upload onto step 4 with the re-picked files, or keeps the message of a failed match', () => {
    const pending = { datasetId: 'd9', sessionId: 's9', fileCount: 1, salt: 'x', startedAt: '2026-01-01T00:00:00Z' };
    const confirmed = run([{ type: 'pending-confirmed', description: 'Brain' }], initialWizardState(pending));
    const rejected = run([{ type: 'resume-rejected', message: '1 of 1 files were not found' }], confirmed);
    const resumed = run([{ type: 'resume-started', files: PICKED.slice(0, 1) }], rejected);
    expect([confirmed.pendingDescription, rejected.resumeError]).toEqual(['Brain', '1 of 1 files were not found']);
    expect([resumed.step, resumed.datasetId, resumed.pending, resumed.resumeError]).toEqual([
      4,
      'd9',
      undefined,
      undefined,
    ]);
  });

  it('keeps the export error until the selection changes', () => {
    const failed = run([
      { type: 'files-discovered', discovery: DISCOVERY, picked: PICKED },
      { type: 'zip-started' },
      { type: 'zip-finished', error: 'Error exporting ZIP: x' },
    ]);
    const changed = run([{ type: 'choices-changed', choices: failed.choices }], failed);
    expect([failed.zipBusy, failed.selectionError, changed.selectionError]).toEqual([
      false,
      'Error exporting ZIP: x',
      undefined,
    ]);
  });
});

describe('upload progress state', () => {
  const overall = { uploadedBytes: 5, totalBytes: 10, filesComplete: 0, filesTotal: 1, partsSent: 1, partsSkipped: 0 };
  const file = { fileIndex: 0, path: 'a', uploadedBytes: 5, totalBytes: 10, status: 'UPLOADING' as const };

  it('follows a run from started to uploaded, and a retry starts from clean figures', () => {
    const actions: UploadProgressAction[] = [
      { type: 'started' },
      { type: 'progressed', overall, files: [file, { ...file, fileIndex: 1, uploadedBytes: 10, status: 'COMPLETE' }] },
    ];
    const running = actions.reduce(uploadProgressReducer, IDLE_UPLOAD);
    const failed = uploadProgressReducer(running, { type: 'failed', message: 'Part 1 of a could not be uploaded' });
    const retried = uploadProgressReducer(failed, { type: 'started' });
    const done = uploadProgressReducer(retried, { type: 'finished', overall: { ...overall, uploadedBytes: 10 } });
    expect([running.phase, running.overall?.uploadedBytes, Object.keys(running.inFlight)]).toEqual([
      'uploading',
      5,
      ['0'],
    ]);
    expect([failed.phase, failed.error]).toEqual(['error', 'Part 1 of a could not be uploaded']);
    expect(retried).toEqual({ phase: 'uploading', inFlight: {} });
    expect([done.phase, done.overall?.uploadedBytes, done.error, done.inFlight]).toEqual([
      'uploaded',
      10,
      undefined,
      {},
    ]);
  });

  it('holds only the files in flight: a file leaves once complete, and the overall figures stay when none came', () => {
    const sending = uploadProgressReducer(
      { phase: 'uploading', inFlight: {} },
      {
        type: 'progressed',
        overall,
        files: [file, { ...file, fileIndex: 1 }, { ...file, fileIndex: 2, status: 'PENDING' }],
      },
    );
    const oneDone = uploadProgressReducer(sending, {
      type: 'progressed',
      files: [{ ...file, uploadedBytes: 10, status: 'COMPLETE' }],
    });
    expect([Object.keys(sending.inFlight), Object.keys(oneDone.inFlight), oneDone.overall]).toEqual([
      ['0', '1'],
      ['1'],
      overall,
    ]);
  });

  it('ignores progress that arrives after the run ended', () => {
    const failed = uploadProgressReducer({ phase: 'uploading', inFlight: {} }, { type: 'failed', message: 'x' });
    expect(uploadProgressReducer(failed, { type: 'progressed', overall, files: [file] })).toBe(failed);
  });
});
