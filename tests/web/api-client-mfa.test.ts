import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';
import { apiRequest, configureApiClient } from '#web/lib/api-client.ts';

const answer = (status: number, code: string) =>
  vi.fn(
    async () =>
      new Response(JSON.stringify({ error: { code, message: ERROR_CATALOGUE[code as 'MFA_REQUIRED'].message } }), {
        status,
      }),
  );

beforeEach(() =>
  setRuntimeConfig({
    region: 'local',
    userPoolId: 'pool',
    userPoolClientId: 'client',
    apiBaseUrl: 'http://api.test',
    mode: 'local',
    demoAccounts: [],
  }),
);
afterEach(() => vi.unstubAllGlobals());

describe('the site API client when a second factor becomes required', () => {
  it('tells the auth feature about MFA_REQUIRED (and 401 apart), and still rejects with the catalogue message', async () => {
    const onUnauthorized = vi.fn();
    const onMfaRequired = vi.fn();
    configureApiClient({ getToken: async () => 'tok', onUnauthorized, onMfaRequired });

    vi.stubGlobal('fetch', answer(403, 'MFA_REQUIRED'));
    await expect(apiRequest('/api/me', z.unknown())).rejects.toMatchObject({ code: 'MFA_REQUIRED' });
    expect([onMfaRequired.mock.calls.length, onUnauthorized.mock.calls.length]).toEqual([1, 0]);

    vi.stubGlobal('fetch', answer(403, 'ACCESS_DENIED'));
    await expect(apiRequest('/api/me', z.unknown())).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(onMfaRequired).toHaveBeenCalledTimes(1);

    vi.stubGlobal('fetch', answer(401, 'NO_TOKEN'));
    await expect(apiRequest('/api/me', z.unknown())).rejects.toMatchObject({ status: 401 });
    expect([onMfaRequired.mock.calls.length, onUnauthorized.mock.calls.length]).toEqual([1, 1]);
  });
});
