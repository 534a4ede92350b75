// @vitest-environment jsdom
import { ChakraProvider, Tabs } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver, setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';
import { system } from '#web/components/ui/provider.tsx';
import { SsoTab } from '#web/features/settings/components/sso-tab.tsx';

/** The SSO tab (docs/sso.md#the-sso-tab) over a stubbed API: the test's checks are shown, a save sends the form. */
const ISSUER = 'https://idp.northside.demo.local';
const calls: { method: string; url: string; body?: unknown }[] = [];

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  calls.length = 0;
  setTestRuntimeConfig('cloud');
  stubResizeObserver();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      if (url.endsWith('/sso/saml-metadata'))
        return answer({
          ok: true,
          metadata: {
            entityId: 'https://idp.northside.demo.local/saml',
            ssoUrl: 'https://idp.northside.demo.local/saml/sso',
            signingCertificates: [{ subject: 'CN=idp.northside.demo.local', validTo: '2027-03-01T09:00:00.000Z' }],
          },
        });
      if (url.endsWith('/sso/test'))
        return answer({
          ok: false,
          checks: [{ name: 'discovery', ok: false, detail: `${ISSUER}/.well-known/openid-configuration: HTTP 404` }],
        });
      if (method === 'PUT') {
        const { clientSecret: _secret, metadataXml: _xml, ...fields } = body as Record<string, unknown>;
        const saml =
          fields.protocol === 'SAML'
            ? {
                entityId: 'https://idp.northside.demo.local/saml',
                ssoUrl: 'https://idp.northside.demo.local/saml/sso',
                signingCertificates: [],
              }
            : {};
        return answer({
          sso: {
            ...fields,
            ...saml,
            providerName: 'oidc-hosp-northside',
            updatedAt: '2026-03-01T09:00:00.000Z',
            updatedByUserId: 'admin',
          },
        });
      }
      return answer({ sso: null });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTab() {
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <Tabs.Root value="sso">
          <SsoTab />
        </Tabs.Root>
      </SWRConfig>
    </ChakraProvider>,
  );
}

describe('the SSO tab', () => {
  it('reports each check of the connection test, then saves the provider and offers to disconnect it', async () => {
    // Arrange
    renderTab();
    const issuer = await screen.findByPlaceholderText('https://login.hospital.org');
    fireEvent.change(issuer, { target: { value: ISSUER } });
    fireEvent.change(document.querySelector('input[name="clientId"]')!, { target: { value: 'imaging-workspace' } });
    fireEvent.change(document.querySelector('input[name="clientSecret"]')!, { target: { value: 'secret-1' } });
    fireEvent.change(document.querySelector('input[name="domains"]')!, {
      target: { value: 'northside.demo.local, staff.northside.demo.local' },
    });

    // Act: test the connection.
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));

    // Assert: the failing check with what went wrong.
    expect(await screen.findByText('The connection test failed')).toBeTruthy();
    expect(screen.getByText(`Failed: discovery: ${ISSUER}/.well-known/openid-configuration: HTTP 404`)).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/sso/test'))?.body).toEqual({ issuer: ISSUER });

    // Act: save (switched off, so the server needs no passing test).
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));

    // Assert
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      protocol: 'OIDC',
      issuer: ISSUER,
      clientId: 'imaging-workspace',
      clientSecret: 'secret-1',
      domains: ['northside.demo.local', 'staff.northside.demo.local'],
      groupsClaim: 'groups',
      roleMappings: [],
      enabled: false,
      ssoOnly: false,
    });
    expect(await screen.findByRole('button', { name: 'Disconnect' })).toBeTruthy();
    // The secret is never shown back: the field is empty, with the note that the held one is kept.
    expect((document.querySelector('input[name="clientSecret"]') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('Leave empty to keep the secret the provider already has.')).toBeTruthy();
  });

  it('says that ending access the same day needs SCIM or the Users page, not the provider alone', async () => {
    // Arrange
    renderTab();

    // Act
    const note = await screen.findByTestId('sso-termination-note');

    // Assert
    expect(note.textContent).toContain('tokens they already hold keep refreshing until they expire');
    expect(note.textContent).toContain('deactivate users through SCIM provisioning (Integrations tab)');
  });

  it('reads a SAML metadata file, shows what was read, and saves the provider with the file', async () => {
    // Arrange
    renderTab();
    const protocol = await screen.findByLabelText('Protocol');
    fireEvent.change(protocol, { target: { value: 'SAML' } });
    fireEvent.change(screen.getByLabelText('Metadata source'), { target: { value: 'file' } });
    const xml = '<EntityDescriptor entityID="https://idp.northside.demo.local/saml"/>';
    const file = new File([xml], 'federationmetadata.xml', { type: 'application/xml' });
    fireEvent.change(document.querySelector('input[name="metadataFile"]')!, { target: { files: [file] } });
    await screen.findByText('federationmetadata.xml');
    fireEvent.change(document.querySelector('input[name="domains"]')!, { target: { value: 'northside.demo.local' } });

    // Act: read the metadata.
    fireEvent.click(screen.getByRole('button', { name: 'Read metadata' }));

    // Assert: what the server read; no OpenID Connect field nor test.
    expect(await screen.findByText('Metadata read')).toBeTruthy();
    expect(screen.getByText('Entity ID: https://idp.northside.demo.local/saml')).toBeTruthy();
    expect(screen.getByText('Signing certificate: CN=idp.northside.demo.local, valid until 2027-03-01')).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/sso/saml-metadata'))?.body).toEqual({ metadataXml: xml });
    expect(document.querySelector('input[name="issuer"]')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test connection' })).toBeNull();

    // Act: save.
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));

    // Assert: the SAML groups attribute took the place of the OpenID Connect default.
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      protocol: 'SAML',
      metadataXml: xml,
      domains: ['northside.demo.local'],
      groupsClaim: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      roleMappings: [],
      enabled: false,
      ssoOnly: false,
    });
    expect(await screen.findByRole('button', { name: 'Disconnect' })).toBeTruthy();
  });
});
