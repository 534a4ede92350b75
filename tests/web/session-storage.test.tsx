// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The Amplify calls are replaced: these tests are about what the site leaves in the browser, not about Cognito.
const amplify = vi.hoisted(() => ({ signOut: vi.fn(async () => {}), storages: [] as unknown[] }));
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('aws-amplify/auth', () => ({ signOut: amplify.signOut, signIn: vi.fn(), fetchAuthSession: vi.fn() }));
vi.mock('aws-amplify/auth/cognito', () => ({
  cognitoUserPoolsTokenProvider: { setKeyValueStorage: (storage: unknown) => amplify.storages.push(storage) },
}));
// The upload client opens a session and then never finishes, so the test sees what is stored mid-upload.
vi.mock('#shared/client/upload-client.ts', () => ({
  uploadDataset: vi.fn(
    (options: {
      salt: string;
      onSession?: (s: { sessionId: string; datasetId: string; fileCount: number; salt: string }) => void;
    }) => {
      options.onSession?.({ sessionId: 'session-1', datasetId: 'dataset-1', fileCount: 2, salt: options.salt });
      return new Promise(() => {});
    },
  ),
}));

import { sessionStorage as amplifySessionStorage } from 'aws-amplify/utils';
import { configureCognito, signOutEverywhere } from '#web/features/auth/api/cognito-session.ts';
import { useStudyUpload } from '#web/features/uploads/hooks/use-study-upload.ts';
import { loadPendingUpload, savePendingUpload } from '#web/features/uploads/utils/pending-upload.ts';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';

const CONFIG = {
  region: 'eu-west-1',
  userPoolId: 'pool',
  userPoolClientId: 'client',
  apiBaseUrl: '',
  mode: 'local' as const,
  demoAccounts: [],
};
const PATIENT_FOLDER = 'DOE_JANE_19700101';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  amplify.storages.length = 0;
});
afterEach(() => vi.clearAllMocks());

describe('what the browser keeps of a session', () => {
  it('keeps tokens for this tab only when no "remember me" choice was ever made', () => {
    // Act
    configureCognito(CONFIG);
    // Assess
    expect(amplify.storages).toEqual([amplifySessionStorage]);
  });

  it('keeps only the dataset and session ids and the key salt of an upload in progress, never a file or folder name', async () => {
    // Prepare
    setRuntimeConfig(CONFIG);
    const files = ['IM0001', 'IM0002'].map((name) => ({
      path: `${PATIENT_FOLDER}/${name}`,
      file: new File(['dicm'], name, { lastModified: 1 }),
    }));
    const { result } = renderHook(() => useStudyUpload());
    // Act
    act(() => void result.current.start({ datasetId: 'dataset-1', files }));
    // Assess
    await waitFor(() => expect(loadPendingUpload()).toBeDefined());
    const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    expect(loadPendingUpload()).toMatchObject({
      datasetId: 'dataset-1',
      sessionId: 'session-1',
      fileCount: 2,
      salt: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect([stored.includes(PATIENT_FOLDER), stored.includes('IM0001')]).toEqual([false, false]);
  });

  it('drops a pending upload stored by an older release with file paths', () => {
    // Prepare
    localStorage.setItem(
      'iws.upload.pending',
      JSON.stringify({
        datasetId: 'd',
        studyDescription: 'x',
        startedAt: '',
        files: [{ path: `${PATIENT_FOLDER}/a` }],
      }),
    );
    // Act
    const pending = loadPendingUpload();
    // Assess
    expect([pending, localStorage.getItem('iws.upload.pending')]).toEqual([undefined, null]);
  });

  it('removes every upload item and the tokens on sign-out, even when the server call fails, and keeps the theme', async () => {
    // Prepare
    savePendingUpload({ datasetId: 'd', sessionId: 's', fileCount: 1, salt: 'x', startedAt: '2026-01-01T00:00:00Z' });
    localStorage.setItem('iws.upload.other', PATIENT_FOLDER);
    sessionStorage.setItem('iws.upload.pending', '{}');
    localStorage.setItem('CognitoIdentityServiceProvider.client.user.idToken', 'token');
    localStorage.setItem('iws.theme', 'dark');
    amplify.signOut.mockRejectedValueOnce(new Error('offline'));
    // Act
    await signOutEverywhere();
    // Assess
    expect({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }).toEqual({
      local: ['iws.theme'],
      session: [],
    });
  });
});
