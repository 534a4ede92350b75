import { Alert, Button, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { PasswordSchema } from '#shared/schemas/api/invitations.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { confirmPasswordReset, requestPasswordReset } from '#web/features/auth/api/cognito-session.ts';

const EmailSchema = z.string().trim().pipe(z.email('Please enter a valid email address'));
const CodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail');

type Props = { onDone(email: string): void };

/**
 * Forgot password (docs/screens.md#forgot-password): the e-mail first, then the code Cognito e-mailed and a new
 * password under the pool's policy. Cognito's own messages show as they are (wrong code, attempt limit).
 */
export function ForgotPasswordForm({ onDone }: Props) {
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; code?: string; password?: string }>({});
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (task: () => Promise<void>) => {
    setServerError(undefined);
    setBusy(true);
    try {
      await task();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : 'Please try again later.');
    } finally {
      setBusy(false);
    }
  };

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) return setErrors({ email: parsed.error.issues[0]!.message });
    setErrors({});
    await run(async () => {
      await requestPasswordReset(parsed.data);
      setEmail(parsed.data);
      setStep('code');
    });
  };

  const reset = async (event: FormEvent) => {
    event.preventDefault();
    const next = {
      code: CodeSchema.safeParse(code).error?.issues[0]?.message,
      password: PasswordSchema.safeParse(password).error?.issues[0]?.message,
    };
    setErrors(next);
    if (next.code || next.password) return;
    await run(async () => {
      await confirmPasswordReset(email, code.trim(), password);
      onDone(email);
    });
  };

  return step === 'email' ? (
    <form onSubmit={sendCode} noValidate aria-label="Forgot password">
      <Stack gap="4">
        <Text color="fg.muted">Enter your e-mail and we will send you a code to set a new password.</Text>
        {serverError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{serverError}</Alert.Title>
          </Alert.Root>
        )}
        <FormField label="Email" required error={errors.email}>
          <Input
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </FormField>
        <Button type="submit" loading={busy} loadingText="Sending..." disabled={busy}>
          Send Reset Code
        </Button>
      </Stack>
    </form>
  ) : (
    <form onSubmit={reset} noValidate aria-label="Reset password">
      <Stack gap="4">
        <Text color="fg.muted">We sent a code to {email}. Enter it with your new password.</Text>
        {serverError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{serverError}</Alert.Title>
          </Alert.Root>
        )}
        <FormField label="Code" required error={errors.code}>
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </FormField>
        <FormField
          label="New password"
          required
          error={errors.password}
          helperText="At least 12 characters with an uppercase and a lowercase letter, a number and a symbol."
        >
          <Input
            name="newPassword"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
        <Button type="submit" loading={busy} loadingText="Resetting..." disabled={busy}>
          Reset Password
        </Button>
        <Button
          variant="ghost"
          size="sm"
          type="button"
          disabled={busy}
          onClick={() => void run(() => requestPasswordReset(email))}
        >
          Send a new code
        </Button>
      </Stack>
    </form>
  );
}
