import { describe, expect, it } from 'vitest';
import { createSamlMetadataReader, parseIdpMetadata } from '#functions/adapters/saml/metadata-reader.ts';
import { TEST_SAML_ENTITY_ID, TEST_SAML_SSO_URL, testIdpMetadata } from '#tests/helpers/saml-metadata.ts';

describe("a SAML identity provider's metadata (samlify)", () => {
  it('reads the entity ID, the single sign-on URL and the signing certificate of IdP metadata', () => {
    // Arrange
    const xml = testIdpMetadata();

    // Act
    const read = parseIdpMetadata(xml);

    // Assert
    expect(read.entityId).toBe(TEST_SAML_ENTITY_ID);
    expect(read.ssoUrl).toBe(TEST_SAML_SSO_URL);
    expect(read.signingCertificates).toHaveLength(1);
    expect(read.signingCertificates[0]!.subject).toBe('CN=idp.northside.example');
    // Valid for a year from now.
    const days = (Date.parse(read.signingCertificates[0]!.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThan(366);
  });

  it('takes the HTTP-POST binding when the provider offers no redirect', () => {
    expect(parseIdpMetadata(testIdpMetadata({ binding: 'HTTP-POST' })).ssoUrl).toBe(TEST_SAML_SSO_URL);
  });

  it('refuses what is not an identity provider’s metadata, saying why', () => {
    expect(() => parseIdpMetadata('{"issuer": "https://idp"}')).toThrow('not an XML document');
    expect(() => parseIdpMetadata('<<<')).toThrow('not readable XML');
    expect(() => parseIdpMetadata('<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"/>')).toThrow(
      /entityID|SingleSignOnService/,
    );
    const noCertificate = testIdpMetadata().replace(/<KeyDescriptor[\s\S]*?<\/KeyDescriptor>/g, '');
    expect(() => parseIdpMetadata(noCertificate)).toThrow('no signing certificate');
  });

  it('reads a metadata URL over https, without following redirects, and says which answer failed', async () => {
    // Arrange
    const xml = testIdpMetadata();
    const asked: { url: string; redirect?: RequestRedirect }[] = [];
    const reader = createSamlMetadataReader(async (url, init) => {
      asked.push({ url: String(url), redirect: init?.redirect });
      return String(url).endsWith('/missing') ? new Response('', { status: 404 }) : new Response(xml);
    });

    // Act
    const read = await reader({ metadataUrl: 'https://idp.northside.example/metadata' });
    const missing = reader({ metadataUrl: 'https://idp.northside.example/missing' });

    // Assert
    expect(read.xml).toBe(xml);
    expect(read.metadata.entityId).toBe(TEST_SAML_ENTITY_ID);
    await expect(missing).rejects.toThrow('https://idp.northside.example/missing: HTTP 404');
    expect(asked[0]).toEqual({ url: 'https://idp.northside.example/metadata', redirect: 'error' });
  });
});
