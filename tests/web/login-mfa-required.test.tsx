// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '#shared/client/api-error.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { system } from '#web/components/ui/provider.tsx';
import { setRuntimeConfig } from '#web/config/runtime-config.ts';

const login = vi.fn(async () => {
  throw new ApiRequestError(403, 'MFA_REQUIRED', ERROR_CATALOGUE.MFA_REQUIRED.message);
});
vi.mock('#web/features/auth/hooks/use-auth.tsx', () => ({
  useAuth: () => ({ status: 'signed-out', login, discardSession: vi.fn(async () => {}) }),
}));
vi.mock('#web/features/auth/api/cognito-session.ts', () => ({
  signInWithSso: vi.fn(),
  startTotpEnrolment: vi.fn(),
  finishTotpEnrolment: vi.fn(),
  TotpRequiredError: class extends Error {},
}));

const { LoginRoute } = await import('#web/app/routes/auth/login.tsx');

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
afterEach(cleanup);

describe('login page when two-factor is required', () => {
  it("leads a user refused for having no second factor (their role's or their hospital's rule) to enrol one", async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <MemoryRouter>
          <LoginRoute />
        </MemoryRouter>
      </ChakraProvider>,
    );
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'member@northside.demo.local' } });
    fireEvent.change(document.querySelector('input[name="password"]')!, { target: { value: 'secret' } });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    // Assess
    await waitFor(() => expect(screen.getByText('Two-factor authentication required')).toBeTruthy());
    expect(screen.getByText(ERROR_CATALOGUE.MFA_REQUIRED.message)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
  });
});
