import { useCallback, useRef, useState } from 'react';
import {
  uploadDataset,
  type FileProgress,
  type OverallProgress,
  type UploadSource,
} from '#shared/client/upload-client.ts';
import { getRuntimeConfig } from '#web/config/runtime-config.ts';
import { getIdToken } from '#web/lib/api-client.ts';
import type { PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import { clearPendingUpload, savePendingUpload } from '#web/features/uploads/utils/pending-upload.ts';

export type UploadPhase = 'idle' | 'uploading' | 'uploaded' | 'error';

/** A browser File as the shared upload client's source: bytes are read slice by slice, never all at once. */
export function toUploadSource({ path, file }: PickedFile, seriesInstanceUID?: string): UploadSource {
  return {
    path,
    sizeBytes: file.size,
    ...(seriesInstanceUID ? { seriesInstanceUID } : {}),
    read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
  };
}

/**
 * Runs the shared upload client for the wizard and keeps what a closed tab needs to resume (dataset and file
 * identities) in localStorage until the upload is complete.
 */
export function useStudyUpload() {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [overall, setOverall] = useState<OverallProgress>();
  const [files, setFiles] = useState<Record<number, FileProgress>>({});
  const [error, setError] = useState<string>();
  const controller = useRef<AbortController | undefined>(undefined);

  const start = useCallback(
    async (input: {
      datasetId: string;
      studyDescription: string;
      files: PickedFile[];
      seriesOf?: (path: string) => string | undefined;
    }) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setPhase('uploading');
      setError(undefined);
      setFiles({});
      savePendingUpload({
        datasetId: input.datasetId,
        studyDescription: input.studyDescription,
        startedAt: new Date().toISOString(),
        files: input.files.map((f) => ({ path: f.path, sizeBytes: f.file.size, lastModified: f.file.lastModified })),
      });
      try {
        const result = await uploadDataset({
          api: { baseUrl: getRuntimeConfig().apiBaseUrl, getToken: async () => (await getIdToken()) ?? '' },
          datasetId: input.datasetId,
          files: input.files.map((f) => toUploadSource(f, input.seriesOf?.(f.path))),
          concurrency: 6,
          signal: abort.signal,
          onProgress: setOverall,
          onFileProgress: (p) => setFiles((current) => ({ ...current, [p.fileIndex]: p })),
        });
        clearPendingUpload();
        setOverall(result.progress);
        setPhase('uploaded');
        return result;
      } catch (e) {
        if (abort.signal.aborted) return undefined;
        setError(e instanceof Error ? e.message : 'The upload could not be completed.');
        setPhase('error');
        return undefined;
      }
    },
    [],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { phase, overall, files, error, start, cancel };
}
