import { Alert, Button, Card, HStack, Input, List, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { SSO_MAPPABLE_ROLES, type ReadSamlMetadataResult, type TestSsoResult } from '#shared/schemas/api/sso.ts';
import { ROLE_TITLES, type Role } from '#shared/vocabulary/roles.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { disconnectSso, readSamlMetadata, saveSso, testSso, useSso } from '#web/features/settings/api/sso-api.ts';
import {
  SAML_GROUPS_ATTRIBUTE,
  samlSourceOf,
  ssoFormOf,
  ssoRequestOf,
  type SsoForm,
} from '#web/features/settings/utils/sso-form.ts';
import { Toggle } from './settings-controls.tsx';

const roleOptions = (roles: readonly Role[]) => roles.map((role) => ({ value: role, label: ROLE_TITLES[role] }));

const PROTOCOLS = [
  { value: 'OIDC', label: 'OpenID Connect' },
  { value: 'SAML', label: 'SAML 2.0' },
];
const METADATA_SOURCES = [
  { value: 'url', label: 'Metadata URL' },
  { value: 'file', label: 'Metadata file (XML)' },
];
/** Each protocol's usual groups claim: switching protocol swaps one for the other, never an admin's own. */
const DEFAULT_GROUPS_CLAIM = { OIDC: 'groups', SAML: SAML_GROUPS_ATTRIBUTE } as const;

/**
 * Single sign-on (docs/sso.md#the-sso-tab): the hospital's OpenID Connect or SAML 2.0 provider, its e-mail domains and
 * how its groups map onto roles. Saved at once, apart from the form's Save Changes; an OpenID Connect provider is
 * switched on only after a passing test, a SAML provider after its metadata was read.
 */
export function SsoTab() {
  const sso = useSso();
  const [form, setForm] = useState<SsoForm>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [test, setTest] = useState<TestSsoResult>();
  const [metadata, setMetadata] = useState<ReadSamlMetadataResult>();
  const [busy, setBusy] = useState<'save' | 'test' | 'read' | 'disconnect'>();

  useEffect(() => {
    if (sso.data && !form) setForm(ssoFormOf(sso.data.sso));
  }, [sso.data, form]);

  const content = () => {
    if (sso.error) return <ErrorBox message={errorMessage(sso.error)} />;
    if (!form || !sso.data) return <PageSpinner />;
    const connected = sso.data.sso;
    const set = (change: Partial<SsoForm>) => setForm({ ...form, ...change });

    const run = async (kind: 'save' | 'test' | 'read' | 'disconnect', action: () => Promise<void>) => {
      setBusy(kind);
      try {
        await action();
      } catch (error) {
        toaster.create({ type: 'error', title: errorMessage(error) });
      } finally {
        setBusy(undefined);
      }
    };
    const onTest = () =>
      run('test', async () => {
        setTest(await testSso(form.issuer.trim()));
      });
    const onRead = () =>
      run('read', async () => {
        const source = samlSourceOf(form);
        if (!source.metadataUrl && !source.metadataXml)
          return setErrors({ metadataUrl: 'Give the metadata URL or choose the metadata file' });
        setErrors({});
        setMetadata(await readSamlMetadata(source));
      });
    const onFile = async (file: File | undefined) => {
      if (!file) return;
      set({ metadataXml: await file.text(), metadataFileName: file.name });
      setMetadata(undefined);
    };
    const onProtocol = (protocol: SsoForm['protocol']) => {
      const other = protocol === 'SAML' ? 'OIDC' : 'SAML';
      const groupsClaim =
        form.groupsClaim === DEFAULT_GROUPS_CLAIM[other] ? DEFAULT_GROUPS_CLAIM[protocol] : form.groupsClaim;
      set({ protocol, groupsClaim });
      setTest(undefined);
      setMetadata(undefined);
    };
    const onSave = () =>
      run('save', async () => {
        const built = ssoRequestOf(form);
        if (!built.ok) return setErrors(built.errors);
        setErrors({});
        const saved = await saveSso(built.request);
        await sso.mutate(saved, { revalidate: false });
        setForm(ssoFormOf(saved.sso));
        toaster.create({ type: 'success', title: 'Single sign-on saved' });
      });
    const onDisconnect = () =>
      run('disconnect', async () => {
        const saved = await disconnectSso();
        await sso.mutate(saved, { revalidate: false });
        setForm(ssoFormOf(null));
        setTest(undefined);
        setMetadata(undefined);
        toaster.create({ type: 'success', title: 'Identity provider disconnected' });
      });

    const oidcFields = () => (
      <>
        <FormField label="Issuer URL" required error={errors.issuer}>
          <Input
            name="issuer"
            value={form.issuer}
            placeholder="https://login.hospital.org"
            onChange={(e) => set({ issuer: e.currentTarget.value })}
          />
        </FormField>
        <FormField label="Client ID" required error={errors.clientId}>
          <Input name="clientId" value={form.clientId} onChange={(e) => set({ clientId: e.currentTarget.value })} />
        </FormField>
        <FormField
          label="Client secret"
          required={!connected}
          helperText={connected ? 'Leave empty to keep the secret the provider already has.' : undefined}
          error={errors.clientSecret}
        >
          <Input
            name="clientSecret"
            type="password"
            autoComplete="off"
            value={form.clientSecret}
            onChange={(e) => set({ clientSecret: e.currentTarget.value })}
          />
        </FormField>
      </>
    );
    const samlFields = () => (
      <>
        <FormField label="Metadata">
          <Select
            name="metadataSource"
            aria-label="Metadata source"
            value={form.metadataSource}
            options={METADATA_SOURCES}
            onChange={(source) => set({ metadataSource: source as SsoForm['metadataSource'] })}
          />
        </FormField>
        {/* Keyed apart: the URL's controlled input and the file's uncontrolled one are different elements. */}
        {form.metadataSource === 'url' ? (
          <FormField
            key="metadata-url"
            label="Metadata URL"
            required={!connected}
            helperText={connected ? 'Leave empty to keep the metadata the provider already has.' : undefined}
            error={errors.metadataUrl}
          >
            <Input
              name="metadataUrl"
              value={form.metadataUrl}
              placeholder="https://login.hospital.org/federationmetadata.xml"
              onChange={(e) => set({ metadataUrl: e.currentTarget.value })}
            />
          </FormField>
        ) : (
          <FormField
            key="metadata-file"
            label="Metadata file"
            required={!connected}
            helperText={
              form.metadataFileName ||
              (connected ? 'Leave unchosen to keep the metadata the provider already has.' : undefined)
            }
            error={errors.metadataXml ?? errors.metadataUrl}
          >
            <Input
              name="metadataFile"
              type="file"
              accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
              onChange={(e) => void onFile(e.currentTarget.files?.[0])}
            />
          </FormField>
        )}
        {connected?.protocol === 'SAML' && !metadata && (
          <Text fontSize="sm" data-testid="saml-held">
            Connected: {connected.entityId}, signs in at {connected.ssoUrl}
          </Text>
        )}
        {metadata && (
          <Alert.Root status={metadata.ok ? 'success' : 'error'} role="status" data-testid="saml-metadata-result">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{metadata.ok ? 'Metadata read' : 'The metadata could not be read'}</Alert.Title>
              {metadata.ok ? (
                <List.Root fontSize="sm">
                  <List.Item>Entity ID: {metadata.metadata.entityId}</List.Item>
                  <List.Item>Sign-on URL: {metadata.metadata.ssoUrl}</List.Item>
                  {metadata.metadata.signingCertificates.map((c, i) => (
                    <List.Item key={i}>
                      Signing certificate: {c.subject}, valid until {c.validTo.slice(0, 10)}
                    </List.Item>
                  ))}
                </List.Root>
              ) : (
                <Text fontSize="sm">{metadata.reason}</Text>
              )}
            </Alert.Content>
          </Alert.Root>
        )}
      </>
    );

    return (
      <Stack gap="4" maxW="xl">
        <Text color="fg.muted" fontSize="sm">
          Connect your hospital&apos;s OpenID Connect or SAML 2.0 identity provider. Users of your e-mail domains are
          sent to it when they sign in; a first sign-in creates their account with the role their groups map to.
        </Text>
        <FormField label="Protocol">
          <Select
            name="protocol"
            aria-label="Protocol"
            value={form.protocol}
            options={PROTOCOLS}
            onChange={(protocol) => onProtocol(protocol as SsoForm['protocol'])}
          />
        </FormField>
        {form.protocol === 'SAML' ? samlFields() : oidcFields()}
        <FormField
          label="E-mail domains"
          required
          helperText="Separated by commas, e.g. hospital.org, staff.hospital.org"
          error={errors.domains}
        >
          <Input name="domains" value={form.domains} onChange={(e) => set({ domains: e.currentTarget.value })} />
        </FormField>
        <FormField label="Groups claim" error={errors.groupsClaim}>
          <Input
            name="groupsClaim"
            value={form.groupsClaim}
            onChange={(e) => set({ groupsClaim: e.currentTarget.value })}
          />
        </FormField>
        <Stack gap="2">
          <Text fontWeight="medium">Role mapping</Text>
          {form.roleMappings.map((mapping, index) => (
            <HStack key={index}>
              <Input
                aria-label={`Group ${index + 1}`}
                value={mapping.group}
                placeholder="Group at the provider"
                onChange={(e) => {
                  const roleMappings = [...form.roleMappings];
                  roleMappings[index] = { ...mapping, group: e.currentTarget.value };
                  set({ roleMappings });
                }}
              />
              <Select
                aria-label={`Role of group ${index + 1}`}
                value={mapping.role}
                options={roleOptions(SSO_MAPPABLE_ROLES)}
                onChange={(role) => {
                  const roleMappings = [...form.roleMappings];
                  roleMappings[index] = { ...mapping, role };
                  set({ roleMappings });
                }}
              />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => set({ roleMappings: form.roleMappings.filter((_, i) => i !== index) })}
              >
                Remove
              </Button>
            </HStack>
          ))}
          <Button
            alignSelf="flex-start"
            variant="outline"
            size="sm"
            onClick={() => set({ roleMappings: [...form.roleMappings, { group: '', role: 'TEAM_MEMBER' }] })}
          >
            Add mapping
          </Button>
        </Stack>
        <Text color="fg.muted" fontSize="sm">
          A user whose groups map to no role gets the default member role of the Users &amp; Teams tab.
        </Text>
        <Toggle label="Single Sign-On" checked={form.enabled} onChange={(enabled) => set({ enabled })} />
        <Toggle
          label="SSO only (no password sign-in for these domains)"
          checked={form.enabled && form.ssoOnly}
          disabled={!form.enabled}
          onChange={(ssoOnly) => set({ ssoOnly })}
        />
        <Text color="fg.muted" fontSize="sm" data-testid="sso-termination-note">
          A user disabled at your identity provider is refused at their next sign-in through it; tokens they already
          hold keep refreshing until they expire. To end access the same day, deactivate users through SCIM provisioning
          (Integrations tab) or on the Users page.
        </Text>
        {test && (
          <Alert.Root status={test.ok ? 'success' : 'error'} role="status" data-testid="sso-test-result">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{test.ok ? 'The provider answered every check' : 'The connection test failed'}</Alert.Title>
              <List.Root fontSize="sm">
                {test.checks.map((check) => (
                  <List.Item key={check.name}>
                    {check.ok ? 'OK' : 'Failed'}: {check.name}: {check.detail}
                  </List.Item>
                ))}
              </List.Root>
            </Alert.Content>
          </Alert.Root>
        )}
        <HStack>
          {form.protocol === 'SAML' ? (
            <Button variant="outline" onClick={() => void onRead()} loading={busy === 'read'} disabled={!!busy}>
              Read metadata
            </Button>
          ) : (
            <Button variant="outline" onClick={() => void onTest()} loading={busy === 'test'} disabled={!!busy}>
              Test connection
            </Button>
          )}
          <Button onClick={() => void onSave()} loading={busy === 'save'} disabled={!!busy}>
            Save single sign-on
          </Button>
          {connected && (
            <Button
              colorPalette="red"
              variant="outline"
              onClick={() => void onDisconnect()}
              loading={busy === 'disconnect'}
              disabled={!!busy}
            >
              Disconnect
            </Button>
          )}
        </HStack>
      </Stack>
    );
  };

  return (
    <Tabs.Content value="sso">
      <Card.Root>
        <Card.Body>{content()}</Card.Body>
      </Card.Root>
    </Tabs.Content>
  );
}
