import type { FileProgress, OverallProgress } from '#shared/client/upload-client.ts';

export type UploadPhase = 'idle' | 'uploading' | 'uploaded' | 'error';

/** Step 5's view of one run of the upload client: its phase, byte progress overall and per file, and its failure. */
export type UploadProgressState = {
  phase: UploadPhase;
  overall?: OverallProgress;
  files: Record<number, FileProgress>;
  error?: string;
};

export type UploadProgressAction =
  | { type: 'started' }
  | { type: 'progressed'; overall: OverallProgress }
  | { type: 'files-progressed'; files: FileProgress[] }
  | { type: 'finished'; overall: OverallProgress }
  | { type: 'failed'; message: string };

export const IDLE_UPLOAD: UploadProgressState = { phase: 'idle', files: {} };

export function uploadProgressReducer(state: UploadProgressState, action: UploadProgressAction): UploadProgressState {
  switch (action.type) {
    case 'started':
      // A retry starts from what the server reports, so the last run's figures go.
      return { phase: 'uploading', files: {} };
    case 'progressed':
      return state.phase === 'uploading' ? { ...state, overall: action.overall } : state;
    case 'files-progressed': {
      // One finished part moves many files at once: one copy of the map per batch, not per file.
      if (state.phase !== 'uploading') return state;
      const files = { ...state.files };
      for (const file of action.files) files[file.fileIndex] = file;
      return { ...state, files };
    }
    case 'finished':
      return { ...state, phase: 'uploaded', overall: action.overall, error: undefined };
    case 'failed':
      return { ...state, phase: 'error', error: action.message };
  }
}
