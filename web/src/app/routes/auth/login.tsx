import { Box, Button, Card, Center, Heading, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { LuBrainCircuit } from 'react-icons/lu';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { toaster } from '#web/components/ui/toaster.tsx';
import { PageSpinner } from '#web/components/ui/page-states.tsx';
import { getRuntimeConfig } from '#web/config/runtime-config.ts';
import { paths } from '#web/config/paths.ts';
import { signInWithSso, TotpRequiredError } from '#web/features/auth/api/cognito-session.ts';
import { ssoRouteFor } from '#web/features/auth/api/sso-route.ts';
import { LoginForm } from '#web/features/auth/components/login-form.tsx';
import { TotpCodeForm } from '#web/features/auth/components/totp-code-form.tsx';
import { TotpSetup } from '#web/features/auth/components/totp-setup.tsx';
import { ApiRequestError } from '#shared/client/api-error.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { useAuth } from '#web/features/auth/hooks/use-auth.tsx';
import { loginErrorMessage } from '#web/features/auth/utils/login-schema.ts';

function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : paths.dashboard.getHref();
}

/** The login page (docs/screens.md#login-page). */
export function LoginRoute() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const config = getRuntimeConfig();
  const [needsCode, setNeedsCode] = useState(false);
  const [mfaSetupFor, setMfaSetupFor] = useState<string>();
  const [enrolled, setEnrolled] = useState(false);
  if (auth.status === 'loading') return <PageSpinner />;
  if (auth.status === 'signed-in') return <Navigate to={safeRedirect(params.get('redirectTo'))} replace />;

  const welcome = (me: { user: { firstName: string } }) => {
    toaster.create({ type: 'success', title: `Welcome back, ${me.user.firstName}!`, duration: 3000 });
    navigate(safeRedirect(params.get('redirectTo')), { replace: true });
  };

  const onSubmit = async (values: { email: string; password: string; rememberMe: boolean }) => {
    try {
      welcome(await auth.login(values));
    } catch (error) {
      // Two-factor on: the password was right, the authenticator's code comes next.
      if (error instanceof TotpRequiredError) return setNeedsCode(true);
      // The role needs a second factor: enrol one now, then sign in again with it.
      if (error instanceof ApiRequestError && error.code === 'MFA_REQUIRED') return setMfaSetupFor(values.email);
      toaster.create({ type: 'error', title: loginErrorMessage(error) });
      throw error;
    }
  };

  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Stack align="center" gap="2">
            <LuBrainCircuit size="36" aria-hidden />
            <Heading size="xl">Sign in to Imaging Workspace</Heading>
          </Stack>
        </Card.Header>
        <Card.Body>
          {mfaSetupFor ? (
            <Stack gap="4">
              <ErrorBox title="Two-factor authentication required" message={ERROR_CATALOGUE.MFA_REQUIRED.message} />
              <TotpSetup email={mfaSetupFor} onDone={() => setEnrolled(true)} />
              {enrolled && (
                <Button
                  onClick={async () => {
                    await auth.discardSession();
                    setMfaSetupFor(undefined);
                    setEnrolled(false);
                  }}
                >
                  Sign in again
                </Button>
              )}
            </Stack>
          ) : needsCode ? (
            <TotpCodeForm onSubmit={async (code) => welcome(await auth.confirmTotp(code))} />
          ) : (
            <LoginForm
              onSubmit={onSubmit}
              demoAccounts={config.mode === 'local' ? config.demoAccounts : []}
              ssoRouteFor={ssoRouteFor}
              onSso={(url) => signInWithSso(url, config)}
            />
          )}
        </Card.Body>
        <Card.Footer>
          <Stack w="full" gap="2" fontSize="sm">
            <ChakraLink asChild>
              <Link to={paths.home.getHref()}>Back to Home</Link>
            </ChakraLink>
            <Box color="fg.muted">
              <Text>
                By signing in you agree to the{' '}
                <ChakraLink asChild>
                  <Link to={paths.terms.getHref()}>Terms of Service</Link>
                </ChakraLink>{' '}
                and the{' '}
                <ChakraLink asChild>
                  <Link to={paths.privacy.getHref()}>Privacy Policy</Link>
                </ChakraLink>
                .
              </Text>
            </Box>
          </Stack>
        </Card.Footer>
      </Card.Root>
    </Center>
  );
}
