// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';
import { LoginForm } from '#web/features/auth/components/login-form.tsx';
import { loginErrorMessage } from '#web/features/auth/utils/login-schema.ts';

const DEMO = [
  { email: 'superadmin@demo.local', role: 'SUPER_ADMIN' as const },
  { email: 'admin@northside.demo.local', role: 'HOSPITAL_ADMIN' as const },
  { email: 'lead@northside.demo.local', role: 'TEAM_LEAD' as const },
  { email: 'member@northside.demo.local', role: 'TEAM_MEMBER' as const },
  { email: 'guest@northside.demo.local', role: 'GUEST' as const },
];

function renderForm(
  onSubmit = vi.fn(async () => {}),
  demoAccounts = DEMO,
  sso?: { ssoRouteFor: (email: string) => Promise<string | undefined>; onSso: (url: string) => Promise<void> },
) {
  render(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <LoginForm onSubmit={onSubmit} demoAccounts={demoAccounts} {...sso} />
      </MemoryRouter>
    </ChakraProvider>,
  );
  return onSubmit;
}

afterEach(cleanup);

describe('login form', () => {
  it('sends an e-mail of a single sign-on hospital to the hosted login the API names, without a password', async () => {
    // Prepare: the API's answer for each domain (docs/sso.md#domain-routing).
    const HOSTED = 'https://auth.example/oauth2/authorize?identity_provider=oidc-hosp-northside';
    const ssoRouteFor = vi.fn(async (email: string) => (email.endsWith('@northside.org') ? HOSTED : undefined));
    const onSso = vi.fn(async () => {});
    const onSubmit = renderForm(undefined, [], { ssoRouteFor, onSso });

    // Act: the e-mail is left, the API is asked, the password field goes.
    const emailField = screen.getByLabelText(/Email/);
    fireEvent.change(emailField, { target: { value: 'robin@Northside.org' } });
    fireEvent.blur(emailField);
    await waitFor(() => expect(document.querySelector('input[name="password"]')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Continue with single sign-on' }));

    // Assess
    await waitFor(() => expect(onSso).toHaveBeenCalledWith(HOSTED));
    expect(ssoRouteFor).toHaveBeenCalledWith('robin@northside.org');
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(emailField, { target: { value: 'robin@elsewhere.org' } });
    expect(document.querySelector('input[name="password"]')).not.toBeNull();
  });

  it('asks on submit too, and signs a password user in as before', async () => {
    const ssoRouteFor = vi.fn(async () => undefined);
    const onSubmit = renderForm(undefined, [], { ssoRouteFor, onSso: vi.fn(async () => {}) });
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'robin@elsewhere.org' } });
    fireEvent.change(document.querySelector('input[name="password"]')!, { target: { value: 'Correct-horse-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        email: 'robin@elsewhere.org',
        password: 'Correct-horse-1',
        rememberMe: false,
      }),
    );
    expect(ssoRouteFor).toHaveBeenCalledWith('robin@elsewhere.org');
  });

  it("shows a trigger's refusal in its own words (SSO only)", () => {
    const refused = Object.assign(
      new Error(
        'PreAuthentication failed with error Your hospital signs in with single sign-on. Continue with your e-mail to sign in..',
      ),
      { name: 'UserLambdaValidationException' },
    );
    expect(loginErrorMessage(refused)).toBe(
      'Your hospital signs in with single sign-on. Continue with your e-mail to sign in.',
    );
  });

  it('links "Forgot password?" to the reset page', () => {
    renderForm();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('shows the validation messages and does not submit', async () => {
    // Prepare
    const onSubmit = renderForm();
    // Act
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // Assess
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('has four demo buttons that fill the e-mail only, never a password', () => {
    // Prepare
    renderForm();
    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Team Lead' }));
    // Assess
    expect(
      ['Super Admin', 'Hospital Admin', 'Team Lead', 'Team Member'].every((name) =>
        screen.getByRole('button', { name }),
      ),
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guest' })).toBeNull();
    expect((screen.getByLabelText(/Email/) as HTMLInputElement).value).toBe('lead@northside.demo.local');
    expect((document.querySelector('input[name="password"]') as HTMLInputElement).value).toBe('');
  });

  it('shows no demo buttons when the deployment gives no demo accounts (cloud)', () => {
    renderForm(undefined, []);
    expect(screen.queryByTestId('demo-accounts')).toBeNull();
  });

  it('reads "Signing in..." while busy and shows the server error inline', async () => {
    // Prepare
    let reject: (e: Error) => void = () => {};
    const onSubmit = renderForm(
      vi.fn(
        () =>
          new Promise<void>((_, r) => {
            reject = r;
          }),
      ),
    );
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'member@northside.demo.local' } });
    fireEvent.change(document.querySelector('input[name="password"]')!, { target: { value: 'secret' } });
    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // Assess
    await waitFor(() => expect(screen.getByText('Signing in...')).toBeTruthy());
    expect(onSubmit).toHaveBeenCalledWith({
      email: 'member@northside.demo.local',
      password: 'secret',
      rememberMe: false,
    });
    const error = new Error('Incorrect username or password.');
    error.name = 'NotAuthorizedException';
    await act(async () => reject(error));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid credentials');
  });

  it('leaves "Remember me" off unless the user ticks it', async () => {
    // Prepare
    const onSubmit = renderForm();
    const box = document.querySelector('input[name="rememberMe"]') as HTMLInputElement;
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'member@northside.demo.local' } });
    fireEvent.change(document.querySelector('input[name="password"]')!, { target: { value: 'secret' } });
    const uncheckedAtFirst = box.checked;
    // Act
    fireEvent.click(box);
    // The box is ticked in the DOM at once; the form's state follows on a later render (the control's state says so).
    await waitFor(() => expect(box.closest('[data-state]')?.getAttribute('data-state')).toBe('checked'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // Assess
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(uncheckedAtFirst).toBe(false);
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ rememberMe: true }));
  });

  it('toggles the password between hidden and shown', () => {
    renderForm();
    const input = document.querySelector('input[name="password"]') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.type).toBe('text');
  });

  it('maps failures to the catalogue wording', () => {
    expect(loginErrorMessage(Object.assign(new Error('x'), { name: 'UserNotFoundException' }))).toBe(
      'Invalid credentials',
    );
    expect(loginErrorMessage(undefined)).toBe('Login failed');
  });
});
