import { describe, expect, it } from 'vitest';
import { ssoFormOf, ssoRequestOf } from '#web/features/settings/utils/sso-form.ts';

/** The SSO tab's form (docs/sso.md#the-sso-tab): what it sends, and the messages it shows. */
describe('the SSO tab form', () => {
  it('sends the domains as a list, drops empty mapping rows and leaves an empty secret out', () => {
    // Arrange
    const form = {
      ...ssoFormOf(null),
      issuer: ' https://idp.northside.demo.local ',
      clientId: 'imaging-workspace',
      domains: 'Northside.demo.local, staff.northside.demo.local',
      roleMappings: [
        { group: 'radiology-leads', role: 'TEAM_LEAD' },
        { group: ' ', role: 'GUEST' },
      ],
      enabled: false,
      ssoOnly: true,
    };
    // Act
    const built = ssoRequestOf(form);
    // Assert: "SSO only" goes off with single sign-on off.
    expect(built).toEqual({
      ok: true,
      request: {
        protocol: 'OIDC',
        issuer: 'https://idp.northside.demo.local',
        clientId: 'imaging-workspace',
        domains: ['northside.demo.local', 'staff.northside.demo.local'],
        groupsClaim: 'groups',
        roleMappings: [{ group: 'radiology-leads', role: 'TEAM_LEAD' }],
        enabled: false,
        ssoOnly: false,
      },
    });
  });

  it('shows one message per field: an issuer over plain http elsewhere than this machine, no domain', () => {
    const built = ssoRequestOf({ ...ssoFormOf(null), issuer: 'http://idp.northside.demo.local', clientId: 'x' });
    expect(built.ok).toBe(false);
    expect(built.ok ? {} : Object.keys(built.errors).sort()).toEqual(['domains', 'issuer']);
  });

  it('sends a SAML provider with its metadata URL, or the chosen file, and nothing of OpenID Connect', () => {
    // Arrange
    const form = {
      ...ssoFormOf(null),
      protocol: 'SAML' as const,
      issuer: 'https://left.over.example',
      metadataUrl: ' https://idp.northside.demo.local/federationmetadata.xml ',
      domains: 'northside.demo.local',
      groupsClaim: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      enabled: true,
    };

    // Act
    const byUrl = ssoRequestOf(form);
    const byFile = ssoRequestOf({ ...form, metadataSource: 'file', metadataXml: '<EntityDescriptor/>' });
    const unchosen = ssoRequestOf({ ...form, metadataSource: 'file' });

    // Assert
    expect(byUrl).toEqual({
      ok: true,
      request: {
        protocol: 'SAML',
        metadataUrl: 'https://idp.northside.demo.local/federationmetadata.xml',
        domains: ['northside.demo.local'],
        groupsClaim: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
        roleMappings: [],
        enabled: true,
        ssoOnly: false,
      },
    });
    expect(byFile.ok && byFile.request).toMatchObject({ protocol: 'SAML', metadataXml: '<EntityDescriptor/>' });
    expect(byFile.ok && 'metadataUrl' in byFile.request).toBe(false);
    // No source: the server keeps what the pool holds (or asks for it on a first connection).
    expect(unchosen.ok && unchosen.request).toMatchObject({ protocol: 'SAML' });
  });

  it('reads a saved SAML provider back as a SAML form, its file not kept', () => {
    const form = ssoFormOf({
      protocol: 'SAML',
      entityId: 'https://idp.northside.demo.local/saml',
      ssoUrl: 'https://idp.northside.demo.local/sso',
      signingCertificates: [],
      domains: ['northside.demo.local'],
      groupsClaim: 'groups',
      roleMappings: [],
      enabled: true,
      ssoOnly: false,
      providerName: 'saml-hosp-northside',
      updatedAt: '2026-03-01T09:00:00.000Z',
      updatedByUserId: 'admin',
    });
    expect(form).toMatchObject({ protocol: 'SAML', metadataSource: 'file', metadataXml: '', issuer: '' });
  });
});
