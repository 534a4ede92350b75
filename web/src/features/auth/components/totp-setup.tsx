import { Alert, Button, Code, Image, Input, Stack, Text } from '@chakra-ui/react';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '#web/components/ui/form-field.tsx';
import { finishTotpEnrolment, startTotpEnrolment } from '#web/features/auth/api/cognito-session.ts';

/**
 * Two-factor enrolment (docs/screens.md#two-factor-authentication): Cognito gives a secret for an authenticator app
 * (a QR code of its otpauth link to scan, the link, and the key to type in), a first code confirms it, and TOTP becomes
 * the account's second factor.
 */
export function TotpSetup({ email, onDone }: { email: string; onDone?: () => void }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [qr, setQr] = useState<string>();

  // The QR code is drawn in the browser from the otpauth link: the secret never leaves for an image service.
  useEffect(() => {
    if (!setup) return;
    let live = true;
    QRCode.toDataURL(setup.uri, { margin: 1, width: 200 }).then(
      (url) => live && setQr(url),
      () => live && setQr(undefined),
    );
    return () => {
      live = false;
    };
  }, [setup]);

  const run = async (task: () => Promise<void>) => {
    setError(undefined);
    setBusy(true);
    try {
      await task();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Please try again later.');
    } finally {
      setBusy(false);
    }
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the 6-digit code from your authenticator app');
    void run(async () => {
      await finishTotpEnrolment(code.trim());
      setDone(true);
      onDone?.();
    });
  };

  if (done)
    return (
      <Alert.Root status="success" role="status">
        <Alert.Indicator />
        <Alert.Title>Two-factor authentication is on. You will be asked for a code when you sign in.</Alert.Title>
      </Alert.Root>
    );

  return (
    <Stack gap="4">
      {error && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      {!setup ? (
        <Button
          alignSelf="start"
          loading={busy}
          onClick={() => void run(async () => setSetup(await startTotpEnrolment(email)))}
        >
          Set up two-factor authentication
        </Button>
      ) : (
        <form onSubmit={verify} noValidate aria-label="Verify authenticator">
          <Stack gap="4">
            <Text>
              Add this account to your authenticator app: scan the QR code, open the link on the device with the app, or
              type the key.
            </Text>
            {qr && <Image src={qr} alt="QR code for your authenticator app" width="200px" height="200px" />}
            <Text fontSize="sm">
              Link: <Code wordBreak="break-all">{setup.uri}</Code>
            </Text>
            <Text fontSize="sm">
              Key: <Code data-testid="totp-secret">{setup.secret}</Code>
            </Text>
            <FormField label="Code from the app" required>
              <Input
                name="totpSetupCode"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </FormField>
            <Button type="submit" alignSelf="start" loading={busy} loadingText="Verifying..." disabled={busy}>
              Verify and turn on
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
