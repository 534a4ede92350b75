import { Card, Center, Heading, Link as ChakraLink, Stack } from '@chakra-ui/react';
import { Link, useNavigate } from 'react-router-dom';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { ForgotPasswordForm } from '#web/features/auth/components/forgot-password-form.tsx';

/** /forgot-password (docs/screens.md#forgot-password): public; back to the login page when done. */
export function ForgotPasswordRoute() {
  const navigate = useNavigate();
  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Heading size="xl">Reset your password</Heading>
        </Card.Header>
        <Card.Body>
          <ForgotPasswordForm
            onDone={() => {
              toaster.create({
                type: 'success',
                title: 'Password reset. Sign in with your new password.',
                duration: 5000,
              });
              navigate(paths.login.getHref(), { replace: true });
            }}
          />
        </Card.Body>
        <Card.Footer>
          <Stack fontSize="sm">
            <ChakraLink asChild>
              <Link to={paths.login.getHref()}>Back to sign in</Link>
            </ChakraLink>
          </Stack>
        </Card.Footer>
      </Card.Root>
    </Center>
  );
}
