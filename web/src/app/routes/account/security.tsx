import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import { TotpSetup } from '#web/features/auth/components/totp-setup.tsx';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';

/** /account/security (docs/screens.md#two-factor-authentication): the signed-in user's own second factor. */
export function AccountSecurityRoute() {
  const me = useCurrentUser();
  return (
    <Stack gap="6" maxW="2xl">
      <Heading size="xl">Account security</Heading>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Two-Factor Authentication</Heading>
          <Text color="fg.muted">A code from an authenticator app at every sign-in, on top of your password.</Text>
        </Card.Header>
        <Card.Body>
          <TotpSetup email={me.user.email} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
