import { Hub } from 'aws-amplify/utils';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toaster } from '#web/components/ui/toaster.tsx';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { configureApiClient } from '#web/lib/api-client.ts';
import { getMe } from '#web/features/auth/api/get-me.ts';
import type { MeResponse } from '#web/features/auth/api/me-schema.ts';
import {
  confirmTotpSignIn,
  getIdToken,
  signInWithPassword,
  signOutEverywhere,
} from '#web/features/auth/api/cognito-session.ts';
import { ApiRequestError } from '#shared/client/api-error.ts';
import { logout as recordLogout } from '#web/features/auth/api/logout.ts';

type AuthState =
  | { status: 'loading'; me: undefined }
  | { status: 'signed-out'; me: undefined; byUser?: boolean }
  | { status: 'signed-in'; me: MeResponse };

type AuthContextValue = AuthState & {
  /** Throws TotpRequiredError when the account has two-factor on: then confirmTotp(code) finishes the sign-in. */
  login(input: { email: string; password: string; rememberMe: boolean }): Promise<MeResponse>;
  confirmTotp(code: string): Promise<MeResponse>;
  logout(): Promise<void>;
  /** Ends the Cognito session without an API call (after enrolling a required second factor). */
  discardSession(): Promise<void>;
  isHospitalAdmin: boolean;
  isTeamLead: boolean;
  isSuperAdmin: boolean;
};

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

/**
 * The session: Cognito tokens through Amplify, the user record through `GET /api/me`. A failed lookup of the
 * current user signs out (docs/states.md#sign-in-session).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading', me: undefined });

  const clear = useCallback(() => setState({ status: 'signed-out', me: undefined }), []);
  const signedIn = useRef(false);
  useEffect(() => {
    signedIn.current = state.status === 'signed-in';
  }, [state.status]);

  useEffect(() => {
    configureApiClient({
      getToken: getIdToken,
      onUnauthorized: () => void signOutEverywhere().then(clear),
      // A second factor became required while signed in (the hospital's policy changed): the session ends and the
      // login page leads to enrolment at the next sign-in (docs/screens.md#two-factor-authentication). While signing
      // in, the login page handles the same answer itself and keeps the session to enrol.
      onMfaRequired: () => {
        if (!signedIn.current) return;
        signedIn.current = false;
        toaster.create({
          type: 'error',
          title: 'Two-factor authentication required',
          description: ERROR_CATALOGUE.MFA_REQUIRED.message,
        });
        void signOutEverywhere().then(clear);
      },
    });
    let cancelled = false;
    (async () => {
      const token = await getIdToken();
      if (!token) return clear();
      try {
        const me = await getMe();
        if (!cancelled) setState({ status: 'signed-in', me });
      } catch {
        await signOutEverywhere();
        if (!cancelled) clear();
      }
    })();
    // Back from a single sign-on: Amplify has exchanged the hosted login's code; load the user record.
    const stopListening = Hub.listen('auth', ({ payload }) => {
      if (payload.event !== 'signInWithRedirect') return;
      getMe()
        .then((me) => !cancelled && setState({ status: 'signed-in', me }))
        .catch(async () => {
          await signOutEverywhere();
          if (!cancelled) clear();
        });
    });
    return () => {
      cancelled = true;
      stopListening();
    };
  }, [clear]);

  const loadMe = useCallback(async () => {
    try {
      const me = await getMe();
      setState({ status: 'signed-in', me });
      return me;
    } catch (error) {
      // A role that needs a second factor keeps its Cognito session just long enough to enrol one
      // (docs/screens.md#two-factor-authentication); anything else ends the session.
      if (error instanceof ApiRequestError && error.code === 'MFA_REQUIRED') throw error;
      await signOutEverywhere();
      throw error instanceof ApiRequestError ? error : new Error('Login failed');
    }
  }, []);

  const confirmTotp = useCallback(
    async (code: string) => {
      await confirmTotpSignIn(code);
      return loadMe();
    },
    [loadMe],
  );

  const login = useCallback(
    async (input: { email: string; password: string; rememberMe: boolean }) => {
      // A TotpRequiredError goes up as it is: the login page asks for the code, then calls confirmTotp.
      await signInWithPassword(input.email, input.password, input.rememberMe);
      return loadMe();
    },
    [loadMe],
  );

  const logout = useCallback(async () => {
    await recordLogout().catch(() => undefined);
    await signOutEverywhere();
    setState({ status: 'signed-out', me: undefined, byUser: true });
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const role = state.me?.user.role;
    return {
      ...state,
      login,
      confirmTotp,
      logout,
      discardSession: signOutEverywhere,
      isHospitalAdmin: role === 'HOSPITAL_ADMIN',
      isTeamLead: role === 'TEAM_LEAD',
      isSuperAdmin: role === 'SUPER_ADMIN',
    };
  }, [state, login, confirmTotp, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** The signed-in user; only for components rendered under the protected shell. */
export function useCurrentUser(): MeResponse {
  const auth = useAuth();
  if (auth.status !== 'signed-in') throw new Error('useCurrentUser used outside the signed-in shell');
  return auth.me;
}
