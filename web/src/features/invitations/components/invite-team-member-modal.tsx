import { Button, CheckboxGroup, Checkbox, Dialog, Input, Portal, Stack, Text, Textarea, Wrap } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { GRANTABLE_PERMISSIONS, type GrantablePermission } from '#shared/vocabulary/roles.ts';
import {
  INVITATION_EXPIRY_DAYS,
  TEAM_ROLE_PERMISSIONS,
  TeamInvitationSchema,
} from '#shared/schemas/api/invitations.ts';
import { TEAM_ROLES, type TeamRole } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { useFormSubmit } from '#web/lib/use-form-submit.ts';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import { INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';

const TEAM_ROLE_LABELS: Record<TeamRole, string> = { LEAD: 'Lead', MEMBER: 'Member', GUEST: 'Guest' };
const PERMISSION_LABELS: Record<GrantablePermission, string> = {
  VIEW_DATASETS: 'View datasets',
  UPLOAD_DICOM: 'Upload DICOM',
  SHARE_DATA: 'Share data',
  MANAGE_MEMBERS: 'Manage members',
  SEND_INVITATIONS: 'Send invitations',
  VIEW_ANALYTICS: 'View analytics',
  EXPORT_DATA: 'Export data',
  DELETE_DATA: 'Delete data',
};

type Values = {
  email: string;
  name: string;
  role: TeamRole;
  permissions: GrantablePermission[];
  /** A member invited with the team's default permissions: the invitation names none. */
  teamDefaults: boolean;
  message: string;
  expiresInDays: string;
};
const INITIAL: Values = {
  email: '',
  name: '',
  role: 'MEMBER',
  permissions: [...TEAM_ROLE_PERMISSIONS.MEMBER],
  teamDefaults: true,
  message: '',
  expiresInDays: String(INVITATION_EXPIRY_DAYS),
};

type Props = { teamId: string; open: boolean; onOpenChange(open: boolean): void; onSent(): void };

/**
 * "Invite Team Member" (docs/screens.md#team-invitations): choosing a role sets its default permissions; a member is
 * invited with the team's default permissions unless the inviter chooses others, and then the invitation names none,
 * so the member gets the team's list as it is when they join (docs/domain.md#share-policy); expiry 1 to 30 days. A
 * failure keeps the modal open with an error box.
 */
export function InviteTeamMemberModal({ teamId, open, onOpenChange, onSent }: Props) {
  const [values, setValues] = useState<Values>(INITIAL);
  const { errors, serverError, setServerError, busy, submit: run } = useFormSubmit<keyof Values>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      TeamInvitationSchema.safeParse({
        email: values.email,
        name: values.name || undefined,
        role: values.role,
        ...(values.role === 'MEMBER' && values.teamDefaults ? {} : { permissions: values.permissions }),
        message: values.message,
        expiresInDays: values.expiresInDays,
      }),
      async (data) => {
        await invitationsApi.sendToTeam(teamId, data);
        toaster.create({ type: 'success', ...INVITATION_TOASTS.sent(data.name ?? data.email, data.email) });
        setValues(INITIAL);
        onSent();
        onOpenChange(false);
      },
      (error) => setServerError(error instanceof Error ? error.message : 'Error'),
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <form onSubmit={submit} noValidate aria-label="Invite team member">
              <Dialog.Header>
                <Dialog.Title>Invite Team Member</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {serverError && <ErrorBox message={serverError} />}
                  <FormField label="Email" required error={errors.email}>
                    <Input
                      name="email"
                      type="email"
                      value={values.email}
                      onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
                    />
                  </FormField>
                  <FormField label="Name" error={errors.name}>
                    <Input
                      name="name"
                      value={values.name}
                      onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
                    />
                  </FormField>
                  <FormField label="Role" required error={errors.role}>
                    <Select
                      aria-label="Role"
                      value={values.role}
                      options={TEAM_ROLES.map((r) => ({ value: r, label: TEAM_ROLE_LABELS[r] }))}
                      onChange={(role) =>
                        setValues((v) => ({
                          ...v,
                          role: role as TeamRole,
                          permissions: [...TEAM_ROLE_PERMISSIONS[role as TeamRole]],
                        }))
                      }
                    />
                  </FormField>
                  {values.role === 'MEMBER' && (
                    <Checkbox.Root
                      size="sm"
                      checked={values.teamDefaults}
                      onCheckedChange={(e) => setValues((v) => ({ ...v, teamDefaults: e.checked === true }))}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>Use the team&apos;s default permissions</Checkbox.Label>
                    </Checkbox.Root>
                  )}
                  {values.role === 'MEMBER' && values.teamDefaults ? (
                    <Text fontSize="sm" color="fg.muted" data-testid="team-default-permissions">
                      The member gets the team&apos;s default permissions of new members when they join.
                    </Text>
                  ) : (
                    <FormField label="Permissions" required error={errors.permissions}>
                      <CheckboxGroup
                        value={values.permissions}
                        onValueChange={(permissions) =>
                          setValues((v) => ({ ...v, permissions: permissions as GrantablePermission[] }))
                        }
                      >
                        <Wrap gap="3">
                          {GRANTABLE_PERMISSIONS.map((p) => (
                            // Ids of its own: the field's input id, which Ark gives every box of a field, is one.
                            <Checkbox.Root key={p} value={p} size="sm" ids={{}}>
                              <Checkbox.HiddenInput />
                              <Checkbox.Control />
                              <Checkbox.Label>{PERMISSION_LABELS[p]}</Checkbox.Label>
                            </Checkbox.Root>
                          ))}
                        </Wrap>
                      </CheckboxGroup>
                    </FormField>
                  )}
                  <FormField label="Message" error={errors.message}>
                    <Textarea
                      name="message"
                      rows={3}
                      value={values.message}
                      onChange={(e) => setValues((v) => ({ ...v, message: e.target.value }))}
                    />
                  </FormField>
                  <FormField label="Expires in (days)" required error={errors.expiresInDays}>
                    <Input
                      name="expiresInDays"
                      type="number"
                      min={1}
                      max={30}
                      value={values.expiresInDays}
                      onChange={(e) => setValues((v) => ({ ...v, expiresInDays: e.target.value }))}
                    />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" type="button" onClick={() => onOpenChange(false)} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" loading={busy} loadingText="Sending..." disabled={busy}>
                  Send Invitation
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
