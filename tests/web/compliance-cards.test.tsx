// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';
import { SharesAndHipaa } from '#web/features/compliance/components/compliance-figures.tsx';

afterEach(cleanup);

describe('compliance center: patient shares and HIPAA settings (docs/screens.md#compliance-center)', () => {
  it('shows the counts by status and each toggle as On or Off, from the figures given', () => {
    render(
      <ChakraProvider value={system}>
        <SharesAndHipaa
          data={{
            patientShares: { ACTIVE: 3, EXPIRED: 2, REVOKED: 1, EXHAUSTED: 4, PENDING_APPROVAL: 5, REFUSED: 6 },
            hipaa: {
              toggles: { anonymizeByDefault: true, hashIds: false, regenerateUIDs: true, removePrivateTags: true },
              twoFactorRequired: false,
            },
          }}
        />
      </ChakraProvider>,
    );
    const shares = screen.getByRole('list', { name: 'Patient shares by status' });
    expect(
      within(shares)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Active: 3', 'Expired: 2', 'Revoked: 1', 'Opens used up: 4', 'Waiting for approval: 5', 'Refused: 6']);
    const toggles = screen.getByTestId('hipaa-toggles');
    const state = (label: string) => within(toggles).getByText(label).parentElement!.textContent;
    expect(state('Hash IDs')).toBe('Hash IDsOff');
    expect(state('Anonymize by default')).toBe('Anonymize by defaultOn');
    expect(state('Two-Factor Authentication')).toBe('Two-Factor AuthenticationOff');
  });
});
