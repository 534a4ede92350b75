import { Card, Center } from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { useAuth } from '#web/features/auth/hooks/use-auth.tsx';
import { AcceptInvitation } from '#web/features/invitations/components/accept-invitation.tsx';

/** /invitations/accept?token=... (docs/screens.md#accept-invitation): public; on accept the invitee is signed in. */
export function AcceptInvitationRoute() {
  const [params] = useSearchParams();
  const auth = useAuth();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';

  const onAccepted = async ({ email, password }: { email: string; password: string }) => {
    if (auth.status === 'signed-in') await auth.logout();
    const me = await auth.login({ email, password, rememberMe: false });
    toaster.create({ type: 'success', title: `Welcome, ${me.user.firstName}!`, duration: 3000 });
    navigate(paths.dashboard.getHref(), { replace: true });
  };

  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root w="full" maxW="lg">
        <Card.Body>
          {token ? (
            <AcceptInvitation token={token} onAccepted={onAccepted} />
          ) : (
            <ErrorBox title="Invitation unavailable" message={ERROR_CATALOGUE.INVITATION_LINK_INVALID.message} />
          )}
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
