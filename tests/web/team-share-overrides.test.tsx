// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HOSPITAL_POLICY, type TeamPolicyOverrides } from '#shared/schemas/api/policies.ts';
import { system } from '#web/components/ui/provider.tsx';
import { ShareOverrides } from '#web/features/teams/components/share-overrides.tsx';
import { overridesWith, shareFormOf } from '#web/features/teams/utils/share-overrides.ts';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

const STORED: TeamPolicyOverrides = {
  dataRetentionDays: 90,
  patientShare: { maxOpens: 1, allowedScopes: ['viewer_only'] },
};
const response = (overrides: TeamPolicyOverrides) => ({
  overrides,
  inherited: DEFAULT_HOSPITAL_POLICY,
  effective: DEFAULT_HOSPITAL_POLICY,
  updatedAt: null,
  updatedByUserId: null,
});
const LOOSER = 'Share expiry may not be less restrictive than the hospital defaults.';

const puts: unknown[] = [];
beforeEach(() => {
  puts.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    expect(new URL(url).pathname).toBe('/api/teams/team-1/policy');
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { overrides: TeamPolicyOverrides };
      puts.push(body);
      if (
        (body.overrides.patientShare?.defaultExpiryHours ?? 0) > DEFAULT_HOSPITAL_POLICY.patientShare.defaultExpiryHours
      )
        return new Response(
          JSON.stringify({ error: { code: 'POLICY_LESS_RESTRICTIVE', message: LOOSER, details: [] } }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        );
      return new Response(JSON.stringify(response(body.overrides)), { status: 200 });
    }
    return new Response(JSON.stringify(response(STORED)), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("team's patient-share overrides", () => {
  it("shows the hospital's value of each field, saves a tightening, and shows the server's refusal of a loosening", async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <ShareOverrides teamId="team-1" />
        </SWRConfig>
      </ChakraProvider>,
    );
    const expiry = (await screen.findByLabelText('Default expiry')) as HTMLSelectElement;
    expect(screen.getByText('Hospital: 7 days')).toBeTruthy();
    expect(screen.getByText('Hospital: 3')).toBeTruthy();
    expect((screen.getByLabelText('Max opens') as HTMLSelectElement).value).toBe('1');
    expect(expiry.value).toBe('');

    // Act: loosen the expiry beyond the hospital's 7 days.
    fireEvent.change(expiry, { target: { value: '720' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Share Settings' }));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toContain(LOOSER);
    expect(puts[0]).toEqual({
      overrides: {
        dataRetentionDays: 90,
        patientShare: { allowedScopes: ['viewer_only'], maxOpens: 1, defaultExpiryHours: 720 },
      },
    });

    // Act: tighten it to 24 h instead.
    fireEvent.change(expiry, { target: { value: '24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Share Settings' }));

    // Assess
    await waitFor(() => expect(puts).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect((puts[1] as { overrides: TeamPolicyOverrides }).overrides.patientShare?.defaultExpiryHours).toBe(24);
  });

  it('leaves the other overrides as they are and drops a field set back to the hospital default', () => {
    const form = shareFormOf(STORED);
    expect(form).toEqual({ maxOpens: 1 });
    expect(overridesWith(STORED, { requireOTP: true })).toEqual({
      dataRetentionDays: 90,
      patientShare: { allowedScopes: ['viewer_only'], requireOTP: true },
    });
    expect(overridesWith({ patientShare: { maxOpens: 1 } }, {})).toEqual({});
  });
});
