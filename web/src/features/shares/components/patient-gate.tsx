import { Button, Card, Center, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { PatientSession } from '#shared/schemas/api/shares.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { patientApi } from '#web/features/shares/api/shares-api.ts';

/**
 * The patient page's first step (docs/screens.md#patient-page): send a one-time code, then enter it. Every error is the
 * server's catalogue message (a bad link, a wrong code, a lock) so the page says no more than the server does.
 */
export function PatientGate({ token, onOpen }: { token: string; onOpen(session: PatientSession): void }) {
  const [sentTo, setSentTo] = useState<string | null>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const send = () => run(async () => setSentTo((await patientApi.requestCode(token)).sentTo));
  const verify = () => run(async () => onOpen(await patientApi.verify(token, code)));
  return (
    <Center minH="80vh" p="4">
      <Card.Root maxW="md" w="full">
        <Card.Body>
          <Stack gap="4">
            <Heading size="lg">Your imaging study</Heading>
            {sentTo === undefined ? (
              <>
                <Text>To protect your privacy, we send you a one-time code before showing the study.</Text>
                <Button onClick={send} loading={busy} data-testid="send-code">
                  Send me a code
                </Button>
              </>
            ) : (
              <>
                <Text>We sent a 6-digit code to {sentTo}.</Text>
                <FormField label="Code">
                  <Input
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={code}
                    onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
                    data-testid="share-code"
                  />
                </FormField>
                <Button onClick={verify} loading={busy} disabled={code.length !== 6} data-testid="verify-code">
                  View my study
                </Button>
                <Button variant="ghost" size="sm" onClick={send} disabled={busy}>
                  Send a new code
                </Button>
              </>
            )}
            {error && (
              <Text color="red.fg" role="alert" data-testid="patient-error">
                {error}
              </Text>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
