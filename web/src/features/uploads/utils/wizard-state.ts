import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { normaliseBidsChoice, type BidsChoice } from './bids-categories.ts';
import type { Discovery, PickedFile } from './discover-files.ts';
import { validatePatientContext, EMPTY_PATIENT_CONTEXT, type PatientContextDraft } from './patient-context.ts';
import type { PendingUpload } from './pending-upload.ts';

/**
 * The upload wizard as one reducer (docs/states.md#upload-wizard): five steps taken in order (0 patient context,
 * 1 file discovery, 2 series selection, 3 anonymization, 4 upload and processing), Back on steps 1 to 3, and Upload
 * Another returning to step 0. The side effects (API calls, the upload client, the ZIP) stay in the route; this
 * holds what they decided.
 */
type WizardStep = 0 | 1 | 2 | 3 | 4;

export type SeriesChoice = { selected: boolean; bids: BidsChoice };
type ContextErrors = Partial<Record<keyof PatientContextDraft, string>>;

export type WizardState = {
  step: WizardStep;
  context: PatientContextDraft;
  contextErrors: ContextErrors;
  /** The CREATED dataset once saved as a draft or created for the upload. */
  draftId?: string;
  savingDraft: boolean;
  enhanced: boolean;
  discovery?: Discovery;
  picked: PickedFile[];
  /** Per series instance UID. */
  choices: Record<string, SeriesChoice>;
  selectionError?: string;
  zipBusy: boolean;
  anonymization: AnonymizationOptions;
  /** The dataset being uploaded (step 4) and the files sent for it, in the session's order. */
  datasetId?: string;
  uploadFiles: PickedFile[];
  /** An upload a closed tab left unfinished, with its dataset's description once the server confirmed it. */
  pending?: PendingUpload;
  pendingDescription?: string;
  resumeError?: string;
};

export type WizardAction =
  | { type: 'context-changed'; context: PatientContextDraft }
  | { type: 'context-submitted' }
  | { type: 'context-rejected'; errors: ContextErrors }
  | { type: 'draft-saving' }
  | { type: 'draft-saved'; datasetId: string }
  | { type: 'draft-failed' }
  | { type: 'enhanced-changed'; enhanced: boolean }
  | { type: 'files-discovered'; discovery: Discovery | undefined; picked: PickedFile[] }
  | { type: 'choices-changed'; choices: Record<string, SeriesChoice> }
  | { type: 'selection-rejected'; message: string }
  | { type: 'zip-started' }
  | { type: 'zip-finished'; error?: string }
  | { type: 'anonymization-changed'; options: AnonymizationOptions }
  | { type: 'went-back' }
  | { type: 'went-forward' }
  | { type: 'upload-started'; datasetId: string; files: PickedFile[] }
  | { type: 'pending-confirmed'; description: string }
  | { type: 'pending-dropped' }
  | { type: 'resume-rejected'; message: string }
  | { type: 'resume-started'; files: PickedFile[] }
  | { type: 'reset' };

/** The schema's defaults: the de-identification profile's options as a hospital expects them. */
const DEFAULT_ANONYMIZATION: AnonymizationOptions = AnonymizationOptionsSchema.parse({});

export function initialWizardState(pending?: PendingUpload): WizardState {
  return {
    step: 0,
    context: EMPTY_PATIENT_CONTEXT,
    contextErrors: {},
    savingDraft: false,
    enhanced: false,
    picked: [],
    choices: {},
    zipBusy: false,
    anonymization: DEFAULT_ANONYMIZATION,
    uploadFiles: [],
    ...(pending ? { pending } : {}),
  };
}

/** Every discovered series starts selected, with its BIDS suggestion as a choice the lists hold. */
function defaultChoices(discovery: Discovery | undefined): Record<string, SeriesChoice> {
  return Object.fromEntries(
    (discovery?.series ?? []).map((s) => [
      s.seriesInstanceUID,
      { selected: true, bids: normaliseBidsChoice(s.bidsSuggestion.datatype, s.bidsSuggestion.suffix) },
    ]),
  );
}

/** Whether the current step lets the user go on: valid DICOM found (step 1), a series selected (step 2). */
function canGoForward(state: WizardState): boolean {
  if (state.step === 1) return (state.discovery?.series.length ?? 0) > 0;
  if (state.step === 2) return selectedSeries(state).length > 0;
  return false;
}

/** The series the user kept, in discovery order. */
export function selectedSeries(state: WizardState) {
  return (state.discovery?.series ?? []).filter((s) => state.choices[s.seriesInstanceUID]?.selected);
}

/** The picked files of the selected series, in series order: what the upload sends. */
export function selectedFiles(state: WizardState): PickedFile[] {
  const byPath = new Map(state.picked.map((p) => [p.path, p]));
  return selectedSeries(state)
    .flatMap((s) => s.files.map((f) => byPath.get(f.fileName)))
    .filter((p): p is PickedFile => p !== undefined);
}

/** The series instance UID of each discovered file, by path: the upload session records which series a file is. */
export function seriesOfPath(state: Pick<WizardState, 'discovery'>): Map<string, string> {
  const map = new Map<string, string>();
  for (const s of state.discovery?.series ?? []) for (const f of s.files) map.set(f.fileName, s.seriesInstanceUID);
  return map;
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'context-changed':
      return { ...state, context: action.context };
    case 'context-submitted': {
      const result = validatePatientContext(state.context);
      return result.ok ? { ...state, contextErrors: {}, step: 1 } : { ...state, contextErrors: result.errors };
    }
    case 'context-rejected':
      return { ...state, contextErrors: action.errors, step: 0 };
    case 'draft-saving':
      return { ...state, contextErrors: {}, savingDraft: true };
    case 'draft-saved':
      return { ...state, savingDraft: false, draftId: action.datasetId };
    case 'draft-failed':
      return { ...state, savingDraft: false };
    case 'enhanced-changed':
      return { ...state, enhanced: action.enhanced };
    case 'files-discovered':
      return {
        ...state,
        discovery: action.discovery,
        picked: action.picked,
        choices: defaultChoices(action.discovery),
        selectionError: undefined,
      };
    case 'choices-changed':
      return { ...state, choices: action.choices, selectionError: undefined };
    case 'selection-rejected':
      return { ...state, selectionError: action.message };
    case 'zip-started':
      return { ...state, zipBusy: true, selectionError: undefined };
    case 'zip-finished':
      return { ...state, zipBusy: false, selectionError: action.error };
    case 'anonymization-changed':
      return { ...state, anonymization: action.options };
    case 'went-back':
      return state.step >= 1 && state.step <= 3 ? { ...state, step: (state.step - 1) as WizardStep } : state;
    case 'went-forward':
      return canGoForward(state) ? { ...state, step: (state.step + 1) as WizardStep } : state;
    case 'upload-started':
      return { ...state, draftId: action.datasetId, datasetId: action.datasetId, uploadFiles: action.files, step: 4 };
    case 'pending-confirmed':
      return state.pending ? { ...state, pendingDescription: action.description } : state;
    case 'pending-dropped':
      return { ...state, pending: undefined, pendingDescription: undefined, resumeError: undefined };
    case 'resume-rejected':
      return { ...state, resumeError: action.message };
    case 'resume-started':
      if (!state.pending) return state;
      return {
        ...state,
        datasetId: state.pending.datasetId,
        uploadFiles: action.files,
        pending: undefined,
        resumeError: undefined,
        step: 4,
      };
    case 'reset':
      return { ...initialWizardState(), enhanced: state.enhanced };
  }
}
