import { RevokeButton } from '#web/components/ui/revoke-button.tsx';
import { Alert, Badge, Button, Code, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { CreatedDicomWebClient, Integration } from '#shared/schemas/api/integrations.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import {
  createDicomNode,
  createDicomWebClient,
  revokeIntegration,
  useIntegrations,
  useIntegrationTeams,
} from '#web/features/settings/api/hospital-settings-api.ts';
import {
  addressList,
  clientAccessOf,
  clientErrors,
  EMPTY_CLIENT,
  EMPTY_NODE,
  nodeErrors,
  quietSecondsOf,
  type ClientDraft,
  type NodeDraft,
} from '#web/features/settings/utils/integration-form.ts';
import { useSaveAction } from '#web/lib/use-save-action.ts';

const KIND_LABELS: Record<Integration['kind'], string> = {
  DICOMWEB_CLIENT: 'DICOMweb client',
  DICOM_NODE: 'DICOM node',
};

/**
 * Integrations (docs/dicom-intake.md, docs/screens.md#hospital-settings-page): create a DICOMweb client (its secret is
 * shown once, here) or a DICOM node, list them with where they connect, revoke one. Each action is saved at once.
 */
export function IntegrationsSection() {
  const integrations = useIntegrations();
  const teams = useIntegrationTeams();
  const [client, setClient] = useState<ClientDraft>(EMPTY_CLIENT);
  const [node, setNode] = useState<NodeDraft>(EMPTY_NODE);
  const [created, setCreated] = useState<CreatedDicomWebClient | undefined>();
  const [showErrors, setShowErrors] = useState<'client' | 'node' | undefined>();
  // Each action refreshes the list before its success toast.
  const { saving: busy, run: save } = useSaveAction();
  const run = (action: () => Promise<unknown>, success: string) =>
    save(async () => {
      await action();
      await integrations.mutate();
    }, success);

  if (integrations.error) return <ErrorBox message={errorMessage(integrations.error)} />;
  if (!integrations.data) return <PageSpinner />;
  const { items, endpoints } = integrations.data;
  const teamOptions = (teams.data?.items ?? [])
    .filter((t) => t.isActive !== false)
    .map((t) => ({ value: t.id, label: t.name }));

  const clientProblems = clientErrors(client);
  const nodeProblems = nodeErrors(node);

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Text fontSize="sm">
          DICOMweb: <Code>{endpoints.dicomWebUrl}</Code>
        </Text>
        <Text fontSize="sm">
          Token endpoint: <Code>{endpoints.tokenUrl}</Code>
        </Text>
        <Text fontSize="sm">
          DICOM listener: called AE title <Code>{endpoints.calledAeTitle}</Code>
          {endpoints.dicomPort ? (
            <>
              , port <Code>{endpoints.dicomPort}</Code>
            </>
          ) : null}
        </Text>
      </Stack>

      {created && (
        <Alert.Root status="warning" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Copy the client secret now: it is shown only once.</Alert.Title>
            <Alert.Description>
              <Stack gap="1" mt="2">
                <Text>
                  Client ID: <Code>{created.integration.clientId}</Code>
                </Text>
                <Text>
                  Client secret: <Code data-testid="client-secret">{created.clientSecret}</Code>
                </Text>
              </Stack>
            </Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => setCreated(undefined)}>
            Done
          </Button>
        </Alert.Root>
      )}

      <Stack gap="3">
        <Heading size="md">New DICOMweb client</Heading>
        <FormField label="Name" required error={showErrors === 'client' ? clientProblems.name : undefined}>
          <Input value={client.name} onChange={(e) => setClient({ ...client, name: e.currentTarget.value })} />
        </FormField>
        <FormField
          label="Access"
          required
          helperText="Read: search and retrieve studies (QIDO-RS, WADO-RS). Write: send studies (STOW-RS)."
          error={showErrors === 'client' ? clientProblems.read : undefined}
        >
          <HStack gap="4">
            <Checkbox checked={client.read} onCheckedChange={(read) => setClient({ ...client, read })}>
              Read
            </Checkbox>
            <Checkbox checked={client.write} onCheckedChange={(write) => setClient({ ...client, write })}>
              Write
            </Checkbox>
          </HStack>
        </FormField>
        <FormField
          label="Team"
          required={client.write}
          helperText={
            client.teamId
              ? "The client sends studies into this team and reads only this team's studies; under the individual data policy, only those it sent itself."
              : 'Without a team the client reads the whole hospital and cannot send studies.'
          }
          error={showErrors === 'client' ? clientProblems.teamId : undefined}
        >
          <Select
            aria-label="Team of the DICOMweb client"
            value={client.teamId}
            placeholder="Whole hospital (read only)"
            options={teamOptions}
            onChange={(teamId) => setClient({ ...client, teamId })}
          />
        </FormField>
        <FormField
          label="Quiet time (seconds)"
          helperText="A received study enters processing once no instance has arrived for this long."
          error={showErrors === 'client' ? clientProblems.quietSeconds : undefined}
        >
          <Input
            inputMode="numeric"
            value={client.quietSeconds}
            onChange={(e) => setClient({ ...client, quietSeconds: e.currentTarget.value })}
          />
        </FormField>
        <HStack>
          <Button
            loading={busy}
            onClick={() => {
              setShowErrors('client');
              if (Object.keys(clientProblems).length > 0) return;
              void run(async () => {
                setCreated(
                  await createDicomWebClient({
                    name: client.name.trim(),
                    ...clientAccessOf(client),
                    ...quietSecondsOf(client.quietSeconds),
                  }),
                );
                setClient(EMPTY_CLIENT);
                setShowErrors(undefined);
              }, 'DICOMweb client created');
            }}
          >
            Create DICOMweb client
          </Button>
        </HStack>
      </Stack>

      <Stack gap="3">
        <Heading size="md">New DICOM node</Heading>
        <FormField label="Name" required error={showErrors === 'node' ? nodeProblems.name : undefined}>
          <Input value={node.name} onChange={(e) => setNode({ ...node, name: e.currentTarget.value })} />
        </FormField>
        <FormField label="Team" required error={showErrors === 'node' ? nodeProblems.teamId : undefined}>
          <Select
            aria-label="Team of the DICOM node"
            value={node.teamId}
            placeholder="Select a team"
            options={teamOptions}
            onChange={(teamId) => setNode({ ...node, teamId })}
          />
        </FormField>
        <FormField label="Calling AE title" required error={showErrors === 'node' ? nodeProblems.aeTitle : undefined}>
          <Input value={node.aeTitle} onChange={(e) => setNode({ ...node, aeTitle: e.currentTarget.value })} />
        </FormField>
        <FormField
          label="Allowed source addresses"
          required
          helperText="IPv4 addresses or CIDR blocks, separated by commas."
          error={showErrors === 'node' ? nodeProblems.addresses : undefined}
        >
          <Input value={node.addresses} onChange={(e) => setNode({ ...node, addresses: e.currentTarget.value })} />
        </FormField>
        <FormField label="Quiet time (seconds)" error={showErrors === 'node' ? nodeProblems.quietSeconds : undefined}>
          <Input
            inputMode="numeric"
            value={node.quietSeconds}
            onChange={(e) => setNode({ ...node, quietSeconds: e.currentTarget.value })}
          />
        </FormField>
        <HStack>
          <Button
            loading={busy}
            onClick={() => {
              setShowErrors('node');
              if (Object.keys(nodeProblems).length > 0) return;
              void run(async () => {
                await createDicomNode({
                  name: node.name.trim(),
                  teamId: node.teamId,
                  aeTitle: node.aeTitle.trim(),
                  allowedAddresses: addressList(node.addresses),
                  ...quietSecondsOf(node.quietSeconds),
                });
                setNode(EMPTY_NODE);
                setShowErrors(undefined);
              }, 'DICOM node created');
            }}
          >
            Create DICOM node
          </Button>
        </HStack>
      </Stack>

      <Stack gap="3">
        <Heading size="md">Integrations</Heading>
        <DataTable
          aria-label="Integrations"
          rows={items}
          rowKey={(item) => item.id}
          empty={<Text color="fg.muted">No integrations yet.</Text>}
          columns={[
            { key: 'name', header: 'Name', cell: (item) => item.name },
            { key: 'kind', header: 'Type', cell: (item) => KIND_LABELS[item.kind] },
            {
              key: 'team',
              header: 'Team',
              cell: (item) => item.teamName ?? (item.kind === 'DICOMWEB_CLIENT' ? 'Whole hospital' : ''),
            },
            {
              key: 'access',
              header: 'Access',
              cell: (item) =>
                item.kind === 'DICOMWEB_CLIENT'
                  ? (item.scopes ?? []).map((scope) => scope.slice(scope.indexOf('/') + 1)).join(', ')
                  : 'Send',
            },
            {
              key: 'identity',
              header: 'Identity',
              cell: (item) =>
                item.kind === 'DICOM_NODE' ? (
                  <>
                    <Code>{item.aeTitle}</Code> {item.allowedAddresses?.join(', ')}
                  </>
                ) : (
                  <Code>{item.clientId}</Code>
                ),
            },
            {
              key: 'status',
              header: 'Status',
              cell: (item) => (
                <Badge colorPalette={item.status === 'ACTIVE' ? 'green' : 'gray'}>
                  {item.status === 'ACTIVE' ? 'Active' : 'Revoked'}
                </Badge>
              ),
            },
            {
              key: 'actions',
              cell: (item) =>
                item.status === 'ACTIVE' && (
                  <RevokeButton
                    busy={busy}
                    onRevoke={() => void run(() => revokeIntegration(item.id), 'Integration revoked')}
                  />
                ),
            },
          ]}
        />
      </Stack>
    </Stack>
  );
}
