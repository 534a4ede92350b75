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
});
