import { X509Certificate } from 'node:crypto';
import * as samlify from 'samlify';
import type { SamlMetadataReader } from '#shared/domain/settings/ports.ts';
import type { SamlMetadata } from '#shared/schemas/api/sso.ts';
import { SAML_METADATA_MAX_CHARS } from '#shared/schemas/api/sso.ts';

/** At most this long to read a metadata URL. */
const TIMEOUT_MS = 5000;

const BINDINGS = ['redirect', 'post'] as const;

/**
 * A SAML 2.0 identity provider's metadata (docs/sso.md#saml-providers), read with samlify's metadata parser: the
 * document by its URL (a GET over https without credentials, redirects refused, a timeout and Cognito's size limit)
 * or as given, then checked for what the user pool needs of it (SAML 2.0 Metadata, sections 2.3 and 2.4): an
 * EntityDescriptor's entityID, an IDPSSODescriptor's SingleSignOnService (HTTP-Redirect or HTTP-POST binding) and a
 * signing certificate (KeyDescriptor use="signing", or a KeyDescriptor without use), whose subject and end of validity
 * are answered. The reason of a refusal is a few words.
 */
export function createSamlMetadataReader(fetchImpl: typeof fetch = fetch): SamlMetadataReader {
  return async (source) => {
    const xml = source.metadataUrl ? await download(source.metadataUrl, fetchImpl) : (source.metadataXml ?? '');
    return { xml, metadata: parseIdpMetadata(xml) };
  };
}

async function download(url: string, fetchImpl: typeof fetch): Promise<string> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error && error.name === 'TimeoutError' ? 'no answer within 5 s' : 'unreachable';
    throw new Error(`${url}: ${cause}`, { cause: error });
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > SAML_METADATA_MAX_CHARS) throw new Error(`${url}: the document is too large`);
  return text;
}

export function parseIdpMetadata(xml: string): SamlMetadata {
  if (!xml.trim().startsWith('<')) throw new Error('not an XML document');
  let meta: samlify.IdentityProviderInstance['entityMeta'];
  try {
    meta = samlify.IdentityProvider({ metadata: xml }).entityMeta;
  } catch (error) {
    throw new Error(`not readable XML (${error instanceof Error ? error.message.split('\n')[0]!.slice(0, 120) : ''})`, {
      cause: error,
    });
  }
  const entityId = meta.getEntityID();
  if (typeof entityId !== 'string' || !entityId) throw new Error('no EntityDescriptor with an entityID');
  const ssoUrl = BINDINGS.map((binding) => meta.getSingleSignOnService(binding)).find(
    (url): url is string => typeof url === 'string' && url.length > 0,
  );
  if (!ssoUrl) throw new Error('no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding');
  const signing = [meta.getX509Certificate('signing')].flat().filter((c): c is string => typeof c === 'string');
  if (signing.length === 0) throw new Error('no signing certificate');
  const signingCertificates = signing.map((base64) => {
    try {
      const certificate = new X509Certificate(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
      return {
        subject: certificate.subject.replace(/\n/g, ', '),
        validTo: new Date(certificate.validTo).toISOString(),
      };
    } catch (error) {
      throw new Error('a signing certificate is not an X.509 certificate', { cause: error });
    }
  });
  return { entityId, ssoUrl, signingCertificates };
}
