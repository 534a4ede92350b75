import { Alert, Badge, Button, Code, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { CreatedScimToken } from '#shared/schemas/api/scim.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { getRuntimeConfig } from '#web/config/runtime-config.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { createScimToken, revokeScimToken, useScimTokens } from '#web/features/settings/api/scim-api.ts';
import { RevokeButton } from '#web/components/ui/revoke-button.tsx';
import { useSaveAction } from '#web/lib/use-save-action.ts';

/** The SCIM base URL an identity provider is given: the API's origin and stage, then /scim/v2. */
function scimBaseUrl(): string {
  return `${getRuntimeConfig().apiBaseUrl.replace(/\/api\/?$/, '')}/scim/v2`;
}

/**
 * Provisioning (SCIM), docs/sso.md#provisioning-scim: the SCIM base URL, a new bearer token for the hospital's
 * identity provider (shown once, here), the tokens with their dates, and revoking one. Each action is saved at once.
 */
export function ScimSection() {
  const tokens = useScimTokens();
  const [name, setName] = useState('');
  const [showError, setShowError] = useState(false);
  const [created, setCreated] = useState<CreatedScimToken | undefined>();
  // Each action refreshes the list before its success toast.
  const { saving: busy, run: save } = useSaveAction();
  const run = (action: () => Promise<unknown>, success: string) =>
    save(async () => {
      await action();
      await tokens.mutate();
    }, success);

  if (tokens.error) return <ErrorBox message={errorMessage(tokens.error)} />;
  if (!tokens.data) return <PageSpinner />;

  const nameError = name.trim() ? undefined : 'Required';

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="md">Provisioning (SCIM)</Heading>
        <Text fontSize="sm" color="fg.muted">
          Your identity provider (Microsoft Entra ID, Okta) creates, updates and deactivates this hospital&apos;s users
          and assigns their roles by group. A deactivated user is signed out everywhere at once.
        </Text>
        <Text fontSize="sm">
          SCIM base URL: <Code>{scimBaseUrl()}</Code>
        </Text>
      </Stack>

      {created && (
        <Alert.Root status="warning" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Copy the token now: it is shown only once.</Alert.Title>
            <Alert.Description>
              <Text mt="2">
                Secret token: <Code data-testid="scim-token">{created.token}</Code>
              </Text>
            </Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => setCreated(undefined)}>
            Done
          </Button>
        </Alert.Root>
      )}

      <Stack gap="3">
        <FormField
          label="Token name"
          required
          helperText="Which identity provider holds it, e.g. Entra ID."
          error={showError ? nameError : undefined}
        >
          <Input value={name} onChange={(e) => setName(e.currentTarget.value)} />
        </FormField>
        <HStack>
          <Button
            loading={busy}
            onClick={() => {
              setShowError(true);
              if (nameError) return;
              void run(async () => {
                setCreated(await createScimToken(name.trim()));
                setName('');
                setShowError(false);
              }, 'SCIM token created');
            }}
          >
            Create SCIM token
          </Button>
        </HStack>
      </Stack>

      <DataTable
        aria-label="SCIM tokens"
        rows={tokens.data.items}
        rowKey={(token) => token.id}
        empty={<Text color="fg.muted">No SCIM tokens yet.</Text>}
        columns={[
          { key: 'name', header: 'Name', cell: (token) => token.name },
          { key: 'created', header: 'Created', cell: (token) => formatDateTime(token.createdAt) },
          {
            key: 'status',
            header: 'Status',
            cell: (token) => (
              <Badge colorPalette={token.revokedAt ? 'gray' : 'green'}>{token.revokedAt ? 'Revoked' : 'Active'}</Badge>
            ),
          },
          {
            key: 'actions',
            cell: (token) =>
              !token.revokedAt && (
                <RevokeButton
                  busy={busy}
                  onRevoke={() => void run(() => revokeScimToken(token.id), 'SCIM token revoked')}
                />
              ),
          },
        ]}
      />
    </Stack>
  );
}
