// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver, setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';
import { DEFAULT_DEIDENTIFICATION_POLICY } from '#shared/schemas/api/hospital-admin.ts';
import {
  DEFAULT_HOSPITAL_POLICY,
  DEFAULT_NOTIFICATION_PREFERENCES,
  DEFAULT_SYSTEM_POLICY,
} from '#shared/schemas/api/policies.ts';
import { system } from '#web/components/ui/provider.tsx';
import { HospitalSettingsPage } from '#web/features/settings/components/hospital-settings-page.tsx';

const SETTINGS = {
  profile: {
    name: 'Northside General',
    email: 'contact@northside.test',
    phone: '+1 312 555 0100',
    address: '100 North Lake Shore Drive',
    billingContact: 'billing@northside.test',
  },
  policy: DEFAULT_HOSPITAL_POLICY,
  system: DEFAULT_SYSTEM_POLICY,
  storageUsedBytes: 1024 ** 4,
  updatedAt: null,
  updatedByUserId: null,
};
const DEID = { ...DEFAULT_DEIDENTIFICATION_POLICY, updatedAt: null, updatedByUserId: null };

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** What each route the page reads answers, in the shape of its contract (the other tabs read theirs on mount). */
function bodyFor(url: string, deidentification: unknown): unknown {
  const path = new URL(url).pathname;
  if (path.endsWith('/deidentification-policy')) return deidentification;
  if (path.endsWith('/notification-preferences')) return DEFAULT_NOTIFICATION_PREFERENCES;
  if (path === '/api/integrations')
    return {
      items: [],
      endpoints: {
        dicomWebUrl: 'http://api.test/dicomweb',
        tokenUrl: 'http://auth.test/oauth2/token',
        calledAeTitle: 'IWS',
      },
    };
  if (path === '/api/teams') return { items: [], nextToken: null };
  if (path === '/api/hospital-admin/scim-tokens') return { items: [] };
  if (path === '/api/hospital-admin/sso') return { sso: null };
  return SETTINGS;
}

beforeEach(() => {
  setTestRuntimeConfig('cloud');
  stubResizeObserver();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => answer(bodyFor(url, DEID))),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <HospitalSettingsPage />
      </SWRConfig>
    </ChakraProvider>,
  );
}

describe('the hospital settings page', () => {
  it('shows the unsaved-changes banner after an edit, and Discard restores the saved values', async () => {
    renderPage();
    const name = await screen.findByDisplayValue('Northside General');
    expect(screen.queryByText('You have unsaved changes')).toBeNull();
    fireEvent.change(name, { target: { value: 'Northside General Hospital' } });
    await screen.findByText('You have unsaved changes');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByText('You have unsaved changes')).toBeNull());
    expect(screen.getByDisplayValue('Northside General')).toBeTruthy();
  });

  it('shows the profile messages on save, and storage in TB with one decimal', async () => {
    renderPage();
    const phone = await screen.findByDisplayValue('+1 312 555 0100');
    fireEvent.change(phone, { target: { value: '123' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Phone number must be at least 10 digits');
    expect(screen.getAllByText(/5\.0 TB/).length).toBeGreaterThan(0);
    expect(screen.getByText('Requires Downloads')).toBeTruthy();
    expect(screen.getByText('Block PHI in messages')).toBeTruthy();
  });

  // The HIPAA switches are the de-identification policy (docs/domain.md#hipaa-switches), not flags of their own.
  it('shows the HIPAA switches from the de-identification policy, and a switch turned saves the policy', async () => {
    const policy = {
      ...DEID,
      defaults: { ...DEID.defaults, retainUids: true, removeAllPrivate: true, keepPrivate: false },
    };
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => answer(bodyFor(url, policy)));
    vi.stubGlobal('fetch', fetchMock);
    renderPage();
    await screen.findByDisplayValue('Northside General');
    const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
    await waitFor(() => expect(input('Remove private tags').checked).toBe(true));
    expect(input('Regenerate UIDs').checked).toBe(false);
    // The same option below, seen the other way.
    expect(input('Keep original UIDs').checked).toBe(true);
    for (const fixed of ['Anonymize by default', 'Hash IDs']) {
      expect(input(fixed).checked, fixed).toBe(true);
      expect(input(fixed).disabled, fixed).toBe(true);
    }

    fireEvent.click(input('Remove private tags'));
    await waitFor(() => expect(input('Remove private tags').checked).toBe(false));
    expect(input('Remove all private attributes').checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url, init]) => url.endsWith('/deidentification-policy') && init?.method === 'PUT'),
      ).toBe(true),
    );
    const put = (suffix: string) =>
      JSON.parse(
        fetchMock.mock.calls.find(([url, init]) => url.endsWith(suffix) && init?.method === 'PUT')![1]!.body as string,
      );
    expect(put('/deidentification-policy').defaults).toMatchObject({ removeAllPrivate: false, retainUids: true });
    expect(put('/settings').policy.compliance).toEqual({ dlpRules: { blockPHIInMessages: true } });
  });
});
