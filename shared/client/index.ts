/** The API client as callers outside the site use it (the `iws` command, integration tests, benchmarks). */
export { ApiRequestError } from './api-error.ts';
export { createApiClient, type ApiConnection } from './api-client.ts';
export {
  uploadDataset,
  UploadFailedError,
  type FileProgress,
  type OverallProgress,
  type UploadSource,
} from './upload-client.ts';
