import { Alert, Button, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormField } from '#web/components/ui/form-field.tsx';

const CODE = /^\d{6}$/;

/** The second step of sign-in for an account with two-factor on (docs/screens.md#two-factor-authentication). */
export function TotpCodeForm({ onSubmit }: { onSubmit(code: string): Promise<void> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!CODE.test(code.trim())) return setError('Enter the 6-digit code from your authenticator app');
    setError(undefined);
    setServerError(undefined);
    setBusy(true);
    try {
      await onSubmit(code.trim());
    } catch (e) {
      setServerError(e instanceof Error ? e.message : 'Login failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Two-factor code">
      <Stack gap="4">
        <Text color="fg.muted">Enter the 6-digit code from your authenticator app.</Text>
        {serverError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{serverError}</Alert.Title>
          </Alert.Root>
        )}
        <FormField label="Authentication code" required error={error}>
          <Input
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </FormField>
        <Button type="submit" loading={busy} loadingText="Verifying..." disabled={busy}>
          Verify
        </Button>
      </Stack>
    </form>
  );
}
