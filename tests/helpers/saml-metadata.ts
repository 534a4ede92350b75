import { execFileSync } from 'node:child_process';
import * as samlify from 'samlify';
import { requireTool } from './reference-tools.ts';

/**
 * A SAML 2.0 identity provider's metadata for the SAML tests (docs/sso.md#saml-providers): written by samlify's
 * metadata builder (SAML 2.0 Metadata: an EntityDescriptor with an IDPSSODescriptor, its SingleSignOnService and a
 * signing KeyDescriptor), with a self-signed certificate openssl makes for the test run.
 */
let certificate: string | undefined;

/** A self-signed RSA certificate (PEM) of `CN=idp.northside.example`, valid a year, made once per test run. */
export function testSigningCertificate(): string {
  certificate ??= execFileSync(
    requireTool('openssl'),
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      '/dev/null',
      '-subj',
      '/CN=idp.northside.example',
      '-days',
      '365',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return certificate;
}

export const TEST_SAML_ENTITY_ID = 'https://idp.northside.example/saml';
export const TEST_SAML_SSO_URL = 'https://idp.northside.example/saml/sso';

export function testIdpMetadata(
  options: { entityId?: string; ssoUrl?: string; binding?: 'HTTP-Redirect' | 'HTTP-POST' } = {},
): string {
  return samlify
    .IdentityProvider({
      entityID: options.entityId ?? TEST_SAML_ENTITY_ID,
      signingCert: testSigningCertificate(),
      singleSignOnService: [
        {
          Binding: `urn:oasis:names:tc:SAML:2.0:bindings:${options.binding ?? 'HTTP-Redirect'}`,
          Location: options.ssoUrl ?? TEST_SAML_SSO_URL,
        },
      ],
    })
    .getMetadata();
}
