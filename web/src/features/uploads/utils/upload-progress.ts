import type { FileProgress, OverallProgress } from '#shared/client/upload-client.ts';

export type UploadPhase = 'idle' | 'uploading' | 'uploaded' | 'error';

/**
 * Step 5's view of one run of the upload client: its phase, byte progress overall, the files being sent now, and its
 * failure. A file leaves `inFlight` once it is complete (the overall figures count it), so the state is the size of
 * the parts in flight, not of the study: a 5,000-file study no longer copies 5,000 entries on every update.
 */
export type UploadProgressState = {
  phase: UploadPhase;
  overall?: OverallProgress;
  inFlight: Record<number, FileProgress>;
  error?: string;
};

export type UploadProgressAction =
  | { type: 'started' }
  /** What changed since the last update: the overall figures when they moved, and the files whose state moved. */
  | { type: 'progressed'; overall?: OverallProgress; files: FileProgress[] }
  | { type: 'finished'; overall: OverallProgress }
  | { type: 'failed'; message: string };

export const IDLE_UPLOAD: UploadProgressState = { phase: 'idle', inFlight: {} };

export function uploadProgressReducer(state: UploadProgressState, action: UploadProgressAction): UploadProgressState {
  switch (action.type) {
    case 'started':
      // A retry starts from what the server reports, so the last run's figures go.
      return { phase: 'uploading', inFlight: {} };
    case 'progressed': {
      if (state.phase !== 'uploading') return state;
      const inFlight = { ...state.inFlight };
      for (const file of action.files)
        if (file.status === 'UPLOADING') inFlight[file.fileIndex] = file;
        else delete inFlight[file.fileIndex];
      return { ...state, overall: action.overall ?? state.overall, inFlight };
    }
    case 'finished':
      return { phase: 'uploaded', overall: action.overall, inFlight: {} };
    case 'failed':
      return { ...state, phase: 'error', error: action.message };
  }
}
