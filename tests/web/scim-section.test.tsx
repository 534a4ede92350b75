// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';
import { system } from '#web/components/ui/provider.tsx';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';
import { ScimSection } from '#web/features/settings/components/scim-section.tsx';

/**
 * The Provisioning (SCIM) section (docs/sso.md#provisioning-scim) over a stubbed API: the SCIM base URL is shown, a
 * new token is shown once after creation, and an active token can be revoked.
 */
const calls: { method: string; url: string; body?: unknown }[] = [];
const TOKEN = {
  id: 'tok-1',
  name: 'Entra ID',
  createdAt: '2026-03-01T09:00:00.000Z',
  createdByUserId: 'admin',
  revokedAt: null,
};

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  calls.length = 0;
  setRuntimeConfig({
    region: 'us-east-1',
    userPoolId: 'p',
    userPoolClientId: 'c',
    apiBaseUrl: 'https://api.test/prod/api',
    mode: 'cloud',
    demoAccounts: [],
  });
  stubResizeObserver();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      if (method === 'POST') return answer({ token: 'secret-bearer-token', item: { ...TOKEN, name: 'Okta' } }, 201);
      if (method === 'DELETE') return answer({ ...TOKEN, revokedAt: '2026-03-02T09:00:00.000Z' });
      return answer({ items: [TOKEN] });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSection() {
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <ScimSection />
      </SWRConfig>
    </ChakraProvider>,
  );
}

describe('the Provisioning (SCIM) section', () => {
  it('shows the SCIM base URL and a created token once, and revokes a token', async () => {
    // Arrange
    renderSection();
    await screen.findByText('Entra ID');
    // Act
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Okta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create SCIM token' }));
    const shown = await screen.findByTestId('scim-token');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    // Assert
    expect(screen.getByText('https://api.test/prod/scim/v2')).toBeTruthy();
    expect(shown.textContent).toBe('secret-bearer-token');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Okta' });
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/hospital-admin/scim-tokens/tok-1'))).toBe(
        true,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('scim-token')).toBeNull();
  });
});
