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
  | { type: 'file-progressed'; file: FileProgress }
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
    case 'file-progressed':
      return state.phase === 'uploading'
        ? { ...state, files: { ...state.files, [action.file.fileIndex]: action.file } }
        : state;
    case 'finished':
      return { ...state, phase: 'uploaded', overall: action.overall, error: undefined };
    case 'failed':
      return { ...state, phase: 'error', error: action.message };
  }
}
