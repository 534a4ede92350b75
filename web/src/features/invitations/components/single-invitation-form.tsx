import { Button, HStack, Input, RadioCard, Stack, Textarea } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import {
  DEFAULT_INVITABLE_ROLE,
  INVITABLE_ROLE_INFO,
  INVITABLE_ROLES,
  SingleInvitationSchema,
  type InvitableRole,
} from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { useFormSubmit } from '#web/lib/use-form-submit.ts';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import { INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';

type Props = { departments: Department[]; teams: Team[]; onSent(): void };
type Values = {
  fullName: string;
  email: string;
  role: InvitableRole;
  departmentId: string;
  teamId: string;
  specialization: string;
  message: string;
};
const EMPTY: Values = {
  fullName: '',
  email: '',
  role: DEFAULT_INVITABLE_ROLE,
  departmentId: '',
  teamId: '',
  specialization: '',
  message: '',
};

/**
 * Single Invitation (docs/screens.md#invitation-center): changing the department clears the team; the team selector
 * is disabled until a department is chosen and lists only its teams. Clear Form reloads the page.
 */
export function SingleInvitationForm({ departments, teams, onSent }: Props) {
  const [values, setValues] = useState<Values>(EMPTY);
  const { errors, serverError, setServerError, busy, submit: run } = useFormSubmit<keyof Values>();
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const departmentTeams = teams.filter((t) => t.departmentId === values.departmentId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      SingleInvitationSchema.safeParse(values),
      async (data) => {
        const invitation = await invitationsApi.send(data);
        if (invitation.listStatus === 'pending') toaster.create({ type: 'error', ...INVITATION_TOASTS.sendFailed });
        else toaster.create({ type: 'success', ...INVITATION_TOASTS.sent(data.fullName, data.email) });
        setValues(EMPTY);
        onSent();
      },
      (error) => {
        setServerError(error instanceof Error ? error.message : undefined);
        toaster.create({ type: 'error', ...INVITATION_TOASTS.sendFailed });
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Single invitation">
      <Stack gap="5" maxW="3xl">
        {serverError && <ErrorBox message={serverError} />}
        <HStack gap="4" align="start">
          <FormField label="Full Name" required error={errors.fullName}>
            <Input name="fullName" value={values.fullName} onChange={(e) => set('fullName', e.target.value)} />
          </FormField>
          <FormField label="Email Address" required error={errors.email}>
            <Input name="email" type="email" value={values.email} onChange={(e) => set('email', e.target.value)} />
          </FormField>
        </HStack>
        <FormField label="Role" required error={errors.role}>
          <RadioCard.Root
            value={values.role}
            onValueChange={(e) => e.value && set('role', e.value as InvitableRole)}
            orientation="horizontal"
            width="full"
          >
            <HStack align="stretch" gap="3" width="full">
              {INVITABLE_ROLES.map((role) => (
                <RadioCard.Item key={role} value={role} flex="1">
                  <RadioCard.ItemHiddenInput />
                  <RadioCard.ItemControl>
                    <RadioCard.ItemContent>
                      <RadioCard.ItemText>{INVITABLE_ROLE_INFO[role].label}</RadioCard.ItemText>
                      <RadioCard.ItemDescription>{INVITABLE_ROLE_INFO[role].description}</RadioCard.ItemDescription>
                    </RadioCard.ItemContent>
                    <RadioCard.ItemIndicator />
                  </RadioCard.ItemControl>
                </RadioCard.Item>
              ))}
            </HStack>
          </RadioCard.Root>
        </FormField>
        <HStack gap="4" align="start">
          <FormField label="Department" error={errors.departmentId}>
            <Select
              name="departmentId"
              aria-label="Department"
              value={values.departmentId}
              placeholder="Select department"
              options={departments.map((d) => ({ value: d.id, label: d.name }))}
              onChange={(departmentId) => setValues((v) => ({ ...v, departmentId, teamId: '' }))}
            />
          </FormField>
          <FormField label="Team" error={errors.teamId}>
            <Select
              name="teamId"
              aria-label="Team"
              value={values.teamId}
              placeholder="Select team"
              disabled={!values.departmentId}
              options={departmentTeams.map((t) => ({ value: t.id, label: t.name }))}
              onChange={(teamId) => set('teamId', teamId)}
            />
          </FormField>
        </HStack>
        <FormField label="Specialization" error={errors.specialization}>
          <Input
            name="specialization"
            value={values.specialization}
            onChange={(e) => set('specialization', e.target.value)}
          />
        </FormField>
        <FormField label="Welcome Message" error={errors.message}>
          <Textarea name="message" rows={3} value={values.message} onChange={(e) => set('message', e.target.value)} />
        </FormField>
        <HStack justify="end" gap="3">
          <Button variant="outline" type="button" onClick={() => window.location.reload()} disabled={busy}>
            Clear Form
          </Button>
          <Button type="submit" loading={busy} loadingText="Sending..." disabled={busy}>
            Send Invitation
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
