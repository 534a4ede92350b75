import { Amplify } from 'aws-amplify';
// Completes a single sign-on when the hosted login sends the browser back with its code.
import 'aws-amplify/auth/enable-oauth-listener';
import {
  confirmResetPassword,
  confirmSignIn,
  fetchAuthSession,
  resetPassword,
  setUpTOTP,
  signIn,
  signInWithRedirect,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { defaultStorage, sessionStorage } from 'aws-amplify/utils';
import type { RuntimeConfig } from '#web/config/runtime-config.ts';
import { clearUploadStorage } from '#web/lib/upload-storage.ts';

/**
 * Where the "remember me" choice is kept: tokens go to localStorage when remembered, to sessionStorage (gone with the
 * tab) otherwise, which is also the default when no choice was ever made.
 */
const REMEMBER_KEY = 'iws.auth.remember';

function selectTokenStorage(remember: boolean): void {
  cognitoUserPoolsTokenProvider.setKeyValueStorage(remember ? defaultStorage : sessionStorage);
}

/**
 * Configures Amplify for the deployment's user pool. Locally the Cognito-compatible stand-in is reached through
 * `userPoolEndpoint`; it only speaks USER_PASSWORD_AUTH (no SRP), which the cloud app client also allows.
 */
export function configureCognito(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: {
          email: true,
          // Single sign-on through Cognito's hosted login; the app client's callback is the site's root.
          ...(config.sso
            ? {
                oauth: {
                  domain: config.sso.domain,
                  scopes: ['openid', 'email', 'profile'],
                  redirectSignIn: [`${window.location.origin}/`],
                  redirectSignOut: [`${window.location.origin}/`],
                  responseType: 'code' as const,
                },
              }
            : {}),
        },
      },
    },
  });
  selectTokenStorage(localStorage.getItem(REMEMBER_KEY) === 'true');
}

/** The password was right and the account has two-factor on: the code of the authenticator app comes next. */
export class TotpRequiredError extends Error {
  override name = 'TotpRequiredError';
  constructor() {
    super('Enter the code from your authenticator app');
  }
}

export async function signInWithPassword(email: string, password: string, remember: boolean): Promise<void> {
  localStorage.setItem(REMEMBER_KEY, String(remember));
  selectTokenStorage(remember);
  // A stale session of another user would make Amplify refuse to sign in again.
  await signOut().catch(() => undefined);
  const result = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  if (result.isSignedIn) return;
  // Cognito's SOFTWARE_TOKEN_MFA challenge (docs/screens.md#two-factor-authentication).
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') throw new TotpRequiredError();
  throw new Error('Sign-in needs a step this site does not support yet: ' + result.nextStep.signInStep);
}

/** Answers the SOFTWARE_TOKEN_MFA challenge with the authenticator's 6-digit code. */
export async function confirmTotpSignIn(code: string): Promise<void> {
  const result = await confirmSignIn({ challengeResponse: code });
  if (!result.isSignedIn)
    throw new Error('Sign-in needs a step this site does not support yet: ' + result.nextStep.signInStep);
}

/**
 * Two-factor enrolment with Cognito software tokens: AssociateSoftwareToken gives the secret (and its otpauth URI for
 * an authenticator app); VerifySoftwareToken checks a first code; SetUserMFAPreference makes TOTP the preferred factor.
 */
export async function startTotpEnrolment(email: string): Promise<{ secret: string; uri: string }> {
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri('Imaging Workspace', email).toString() };
}

export async function finishTotpEnrolment(code: string): Promise<void> {
  await verifyTOTPSetup({ code });
  await updateMFAPreference({ totp: 'PREFERRED' });
}

/** The current ID token; Amplify refreshes it with the refresh token when it is about to expire. */
export async function getIdToken(): Promise<string | undefined> {
  try {
    const session = await fetchAuthSession();
    return session.tokens?.idToken?.toString();
  } catch {
    return undefined;
  }
}

/**
 * Signs out and clears what the browser keeps of the session: the tokens, and every upload item (a pending upload's
 * ids), so the next person at this computer finds nothing of this user's studies.
 */
export async function signOutEverywhere(): Promise<void> {
  try {
    await signOut();
  } catch {
    // Sign-out errors are ignored and the local session is cleared anyway (docs/error-catalogue.md#auth-and-lookup).
  }
  for (const store of [localStorage, window.sessionStorage]) {
    for (const key of Object.keys(store)) if (key.startsWith('CognitoIdentityServiceProvider.')) store.removeItem(key);
  }
  clearUploadStorage();
}

/**
 * Forgotten password through Cognito's own flow (docs/screens.md#forgot-password): ForgotPassword e-mails a code
 * (locally: the twin's mail page), ConfirmForgotPassword sets the new password under the pool's policy. Cognito voids
 * a code after repeated wrong guesses (LimitExceededException).
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await resetPassword({ username: email });
}

export async function confirmPasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}

/**
 * Sends the browser to the hospital's identity provider through the hosted login the API named
 * (docs/sso.md#domain-routing). With the deployment's hosted-login domain configured, Amplify makes the request (it
 * keeps the PKCE verifier and state for the way back); otherwise the browser goes to the URL as it is.
 */
export async function signInWithSso(url: string, config: Pick<RuntimeConfig, 'sso'>): Promise<void> {
  await signOut().catch(() => undefined);
  const provider = new URL(url).searchParams.get('identity_provider');
  if (config.sso && provider) await signInWithRedirect({ provider: { custom: provider } });
  else window.location.assign(url);
}
