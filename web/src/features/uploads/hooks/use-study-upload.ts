import { useCallback, useReducer, useRef } from 'react';
import {
  uploadDataset,
  type FileProgress,
  type OverallProgress,
  type UploadSource,
} from '#shared/client/upload-client.ts';
import { newUploadSalt, uploadFileKey } from '#shared/client/file-key.ts';
import { getRuntimeConfig } from '#web/config/runtime-config.ts';
import { getIdToken } from '#web/lib/api-client.ts';
import { PROGRESS_DRAW_MS, throttledDraw } from '#web/lib/throttled-draw.ts';
import type { PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import {
  clearPendingUpload,
  pathInPickedFolder,
  savePendingUpload,
} from '#web/features/uploads/utils/pending-upload.ts';
import { IDLE_UPLOAD, uploadProgressReducer } from '#web/features/uploads/utils/upload-progress.ts';

/**
 * A browser File as the shared upload client's source: a part of the study archive is a Blob of File slices, which
 * the browser reads from disk as it sends them, so memory stays bounded whatever the study's size.
 */
function toUploadSource({ path, file }: UploadingFile, fileKey: string, seriesInstanceUID?: string): UploadSource {
  return {
    path,
    sizeBytes: file.size,
    fileKey,
    ...(seriesInstanceUID ? { seriesInstanceUID } : {}),
    read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
    slice: (start, end) => file.slice(start, end),
  };
}

/** A picked file, with the key its open session knows it by when resuming. */
export type UploadingFile = PickedFile & { fileKey?: string };

/**
 * Runs the shared upload client for the wizard. Once the server has opened the session, the dataset and session ids
 * and the salt of the file keys (only those) are kept in localStorage so a closed tab can resume; they go when the
 * upload is complete. A new upload draws a new salt; a resumed one passes its own.
 */
export function useStudyUpload() {
  const [state, dispatch] = useReducer(uploadProgressReducer, IDLE_UPLOAD);
  const controller = useRef<AbortController | undefined>(undefined);

  const start = useCallback(
    async (input: {
      datasetId: string;
      files: UploadingFile[];
      salt?: string;
      seriesOf?: (path: string) => string | undefined;
    }) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'started' });
      // Progress is drawn a few times a second, not per burst (a finished part moves dozens of files at once).
      let files = new Map<number, FileProgress>();
      let overall: OverallProgress | undefined;
      const draw = throttledDraw(() => {
        if (abort.signal.aborted) return;
        dispatch({ type: 'progressed', overall, files: [...files.values()] });
        files = new Map();
        overall = undefined;
      }, PROGRESS_DRAW_MS);
      try {
        const salt = input.salt ?? newUploadSalt();
        const keys = await Promise.all(
          input.files.map((f) => f.fileKey ?? uploadFileKey(salt, pathInPickedFolder(f.path), f.file.size)),
        );
        const result = await uploadDataset({
          api: { baseUrl: getRuntimeConfig().apiBaseUrl, getToken: async () => (await getIdToken()) ?? '' },
          datasetId: input.datasetId,
          files: input.files.map((f, i) => toUploadSource(f, keys[i]!, input.seriesOf?.(f.path))),
          salt,
          concurrency: 6,
          signal: abort.signal,
          onSession: (session) => savePendingUpload({ ...session, startedAt: new Date().toISOString() }),
          onProgress: (progress) => {
            overall = progress;
            draw.request();
          },
          onFileProgress: (file) => {
            files.set(file.fileIndex, file);
            draw.request();
          },
        });
        draw.cancel();
        clearPendingUpload();
        dispatch({ type: 'finished', overall: result.progress });
        return result;
      } catch (e) {
        draw.cancel();
        if (abort.signal.aborted) return undefined;
        dispatch({ type: 'failed', message: e instanceof Error ? e.message : 'The upload could not be completed.' });
        return undefined;
      }
    },
    [],
  );

  return { ...state, start };
}
