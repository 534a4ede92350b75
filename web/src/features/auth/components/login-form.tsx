import {
  Alert,
  Box,
  Button,
  Checkbox,
  Field,
  Group,
  HStack,
  IconButton,
  Input,
  Link as ChakraLink,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LuEye, LuEyeOff } from 'react-icons/lu';
import type { Role } from '#shared/vocabulary/roles.ts';
import { paths } from '#web/config/paths.ts';
import { LoginFormSchema, loginErrorMessage } from '#web/features/auth/utils/login-schema.ts';

type Props = {
  onSubmit(values: { email: string; password: string; rememberMe: boolean }): Promise<void>;
  /** Local twin only: seeded accounts whose e-mail a button fills in. Never a password. */
  demoAccounts: readonly { email: string; role: Role }[];
  /**
   * Single sign-on (docs/sso.md#domain-routing): the hosted-login URL of the typed e-mail's hospital, if it signs in
   * that way (asked of the API when the e-mail is left and on submit), and how to go there.
   */
  ssoRouteFor?: (email: string) => Promise<string | undefined>;
  onSso?: (url: string) => Promise<void>;
};

/** The four demo buttons and their labels (docs/screens.md#login-page). */
const DEMO_BUTTONS: Partial<Record<Role, string>> = {
  SUPER_ADMIN: 'Super Admin',
  HOSPITAL_ADMIN: 'Hospital Admin',
  TEAM_LEAD: 'Team Lead',
  TEAM_MEMBER: 'Team Member',
};
const DEMO_BUTTON_ROLES = Object.keys(DEMO_BUTTONS) as Role[];

export function LoginForm({ onSubmit, demoAccounts, ssoRouteFor, onSso }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Off unless asked for: on a shared ward computer the next person must not find the session open.
  const [rememberMe, setRememberMe] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // The hosted-login URL of the e-mail last asked about; an answer for an e-mail since changed is dropped.
  const [sso, setSso] = useState<{ email: string; url: string }>();
  const asked = useRef('');
  const ssoUrl = sso && sso.email === email.trim().toLowerCase() ? sso.url : undefined;
  const askSso = async (typed: string): Promise<string | undefined> => {
    const key = typed.trim().toLowerCase();
    if (!ssoRouteFor || !onSso || !key) return undefined;
    asked.current = key;
    const url = await ssoRouteFor(key);
    if (asked.current === key) setSso(url ? { email: key, url } : undefined);
    return url;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const url = ssoUrl ?? (await askSso(email));
    if (url && onSso) {
      setBusy(true);
      setServerError(undefined);
      try {
        await onSso(url);
      } catch (error) {
        setServerError(loginErrorMessage(error));
        setBusy(false);
      }
      return;
    }
    const parsed = LoginFormSchema.safeParse({ email: email.trim(), password, rememberMe });
    if (!parsed.success) {
      const errors: { email?: string; password?: string } = {};
      for (const issue of parsed.error.issues) errors[issue.path[0] as 'email' | 'password'] ??= issue.message;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setServerError(undefined);
    setBusy(true);
    try {
      await onSubmit({ email: parsed.data.email, password: parsed.data.password, rememberMe });
    } catch (error) {
      setServerError(loginErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const buttons = DEMO_BUTTON_ROLES.map((role) => demoAccounts.find((a) => a.role === role)).filter(
    (a) => a !== undefined,
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Stack gap="5">
        {serverError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{serverError}</Alert.Title>
          </Alert.Root>
        )}
        <Field.Root invalid={!!fieldErrors.email} required>
          <Field.Label>Email</Field.Label>
          <Input
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => void askSso(email)}
            placeholder="you@hospital.org"
          />
          <Field.ErrorText>{fieldErrors.email}</Field.ErrorText>
        </Field.Root>
        {ssoUrl ? (
          <Text fontSize="sm" color="fg.muted" data-testid="sso-note">
            Your hospital signs you in with single sign-on: you will continue at its sign-in page.
          </Text>
        ) : (
          <>
            <Field.Root invalid={!!fieldErrors.password} required>
              <Field.Label>Password</Field.Label>
              <Group attached w="full">
                <Input
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <IconButton
                  aria-label={showPassword ? 'Hide password' : 'Show password'}
                  variant="outline"
                  onClick={() => setShowPassword((s) => !s)}
                >
                  {showPassword ? <LuEyeOff /> : <LuEye />}
                </IconButton>
              </Group>
              <Field.ErrorText>{fieldErrors.password}</Field.ErrorText>
            </Field.Root>
            <HStack justify="space-between">
              <Checkbox.Root checked={rememberMe} onCheckedChange={(e) => setRememberMe(e.checked === true)}>
                <Checkbox.HiddenInput name="rememberMe" />
                <Checkbox.Control />
                <Checkbox.Label>Remember me</Checkbox.Label>
              </Checkbox.Root>
              <ChakraLink asChild fontSize="sm">
                <Link to={paths.forgotPassword.getHref()}>Forgot password?</Link>
              </ChakraLink>
            </HStack>
          </>
        )}
        <Button type="submit" loading={busy} loadingText="Signing in..." disabled={busy}>
          {ssoUrl ? 'Continue with single sign-on' : 'Sign In'}
        </Button>
        {buttons.length > 0 && (
          <Box borderWidth="1px" rounded="md" p="3" data-testid="demo-accounts">
            <Text fontSize="sm" fontWeight="medium" mb="2">
              Demo accounts (local workspace)
            </Text>
            <Wrap gap="2">
              {buttons.map((account) => (
                <Button
                  key={account.email}
                  size="xs"
                  variant="outline"
                  onClick={() => {
                    setEmail(account.email);
                    setFieldErrors({});
                  }}
                >
                  {DEMO_BUTTONS[account.role]}
                </Button>
              ))}
            </Wrap>
            <Text fontSize="xs" color="fg.muted" mt="2">
              Fills the e-mail of a seeded account. The password was printed when the local workspace started.
            </Text>
          </Box>
        )}
      </Stack>
    </form>
  );
}
