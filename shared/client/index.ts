/** The API client as callers outside the site use it (the `iws` command, integration tests, benchmarks). */
export { createApiClient } from './api-client.ts';
export { uploadFileKey, newUploadSalt } from './file-key.ts';
export { uploadDataset, UploadFailedError, type OverallProgress, type UploadSource } from './upload-client.ts';
