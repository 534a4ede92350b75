import { Badge, Button, Card, DataList, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import { AcceptInvitationSchema, PASSWORD_MIN_LENGTH } from '#shared/schemas/api/invitations.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { firstIssueByField } from '#web/lib/form-errors.ts';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';

type Props = {
  token: string;
  /** Called once the account exists: the page signs the invitee in with what they just chose. */
  onAccepted(credentials: { email: string; password: string }): Promise<void>;
};

type Fields = 'firstName' | 'lastName' | 'password';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Please try again later.');

/**
 * The invitee's page (docs/screens.md#accept-invitation): hospital, team and role of the invitation, then name and a
 * password under the user pool's policy; or decline. Expired, cancelled and used links show the catalogue's words.
 */
export function AcceptInvitation({ token, onAccepted }: Props) {
  const preview = useSWR(['/api/invitations/preview', token], () => invitationsApi.preview(token), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const [values, setValues] = useState({ firstName: '', lastName: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [serverError, setServerError] = useState<string>();
  const [busy, setBusy] = useState<'accept' | 'decline'>();
  const [declined, setDeclined] = useState(false);

  if (preview.isLoading) return <PageSpinner />;
  if (preview.error) return <ErrorBox title="Invitation unavailable" message={messageOf(preview.error)} />;
  if (declined)
    return (
      <Stack gap="2" role="status">
        <Heading size="lg">Invitation declined</Heading>
        <Text>You declined the invitation. You can close this page.</Text>
      </Stack>
    );
  const invitation = preview.data!;

  const accept = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = AcceptInvitationSchema.safeParse({ token, ...values });
    if (!parsed.success) {
      setErrors(firstIssueByField<Fields>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(undefined);
    setBusy('accept');
    try {
      const result = await invitationsApi.accept(parsed.data);
      await onAccepted({ email: result.email, password: parsed.data.password });
    } catch (error) {
      setServerError(messageOf(error));
    } finally {
      setBusy(undefined);
    }
  };

  const decline = async () => {
    setServerError(undefined);
    setBusy('decline');
    try {
      await invitationsApi.decline(token);
      setDeclined(true);
    } catch (error) {
      setServerError(messageOf(error));
    } finally {
      setBusy(undefined);
    }
  };

  const set = (field: Fields) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <form onSubmit={accept} noValidate aria-label="Accept invitation">
      <Stack gap="5">
        <Stack gap="1">
          <Heading size="lg">Join {invitation.hospitalName}</Heading>
          <Text color="fg.muted">Set your name and password to accept the invitation for {invitation.email}.</Text>
        </Stack>
        <Card.Root variant="subtle">
          <Card.Body>
            <DataList.Root orientation="horizontal">
              <DataList.Item>
                <DataList.ItemLabel>Hospital</DataList.ItemLabel>
                <DataList.ItemValue>{invitation.hospitalName}</DataList.ItemValue>
              </DataList.Item>
              {invitation.department && (
                <DataList.Item>
                  <DataList.ItemLabel>Department</DataList.ItemLabel>
                  <DataList.ItemValue>{invitation.department}</DataList.ItemValue>
                </DataList.Item>
              )}
              <DataList.Item>
                <DataList.ItemLabel>Team</DataList.ItemLabel>
                <DataList.ItemValue>{invitation.team ?? 'No team yet'}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Role</DataList.ItemLabel>
                <DataList.ItemValue>
                  <Badge>{ROLE_TITLES[invitation.role]}</Badge>
                </DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          </Card.Body>
        </Card.Root>
        {serverError && <ErrorBox message={serverError} />}
        <HStack gap="4" align="start">
          <FormField label="First name" required error={errors.firstName}>
            <Input name="firstName" autoComplete="given-name" value={values.firstName} onChange={set('firstName')} />
          </FormField>
          <FormField label="Last name" required error={errors.lastName}>
            <Input name="lastName" autoComplete="family-name" value={values.lastName} onChange={set('lastName')} />
          </FormField>
        </HStack>
        <FormField
          label="Password"
          required
          error={errors.password}
          helperText={`At least ${PASSWORD_MIN_LENGTH} characters with an uppercase and a lowercase letter, a number and a symbol.`}
        >
          <Input
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
          />
        </FormField>
        <HStack justify="space-between">
          <Button variant="outline" onClick={decline} loading={busy === 'decline'} disabled={busy !== undefined}>
            Decline
          </Button>
          <Button type="submit" loading={busy === 'accept'} loadingText="Joining..." disabled={busy !== undefined}>
            Accept Invitation
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
