import {
  PutOidcSsoRequestSchema,
  PutSamlSsoRequestSchema,
  type PutSsoRequest,
  type SsoSettings,
} from '#shared/schemas/api/sso.ts';

/**
 * The SSO tab's fields as typed (docs/sso.md#the-sso-tab): the protocol, an OpenID Connect provider's issuer and
 * client, or a SAML provider's metadata (its URL, or a file's XML); domains one text, role mappings rows.
 */
export type SsoForm = {
  protocol: 'OIDC' | 'SAML';
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Where a SAML provider's metadata comes from. */
  metadataSource: 'url' | 'file';
  metadataUrl: string;
  /** The chosen metadata file's text and name (a file is sent once: later saves keep what the pool holds). */
  metadataXml: string;
  metadataFileName: string;
  domains: string;
  groupsClaim: string;
  roleMappings: { group: string; role: string }[];
  enabled: boolean;
  ssoOnly: boolean;
};

/** The attribute Microsoft Entra ID and AD FS send a user's groups in: the groups claim a SAML provider starts with. */
export const SAML_GROUPS_ATTRIBUTE = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups';

export function ssoFormOf(sso: SsoSettings | null): SsoForm {
  const saml = sso?.protocol === 'SAML' ? sso : undefined;
  const oidc = sso && sso.protocol !== 'SAML' ? sso : undefined;
  return {
    protocol: saml ? 'SAML' : 'OIDC',
    issuer: oidc?.issuer ?? '',
    clientId: oidc?.clientId ?? '',
    clientSecret: '',
    metadataSource: saml && !saml.metadataUrl ? 'file' : 'url',
    metadataUrl: saml?.metadataUrl ?? '',
    metadataXml: '',
    metadataFileName: '',
    domains: sso?.domains.join(', ') ?? '',
    groupsClaim: sso?.groupsClaim ?? 'groups',
    roleMappings: sso?.roleMappings.map((m) => ({ ...m })) ?? [],
    enabled: sso?.enabled ?? false,
    ssoOnly: sso?.ssoOnly ?? false,
  };
}

/** The metadata source a SAML form names: the URL, or a chosen file's XML (neither: keep what the pool holds). */
export function samlSourceOf(form: SsoForm): { metadataUrl?: string; metadataXml?: string } {
  if (form.metadataSource === 'url') return form.metadataUrl.trim() ? { metadataUrl: form.metadataUrl.trim() } : {};
  return form.metadataXml ? { metadataXml: form.metadataXml } : {};
}

/** The request of a filled form, or the first message per field (the schema's). */
export function ssoRequestOf(
  form: SsoForm,
): { ok: true; request: PutSsoRequest } | { ok: false; errors: Record<string, string> } {
  const common = {
    domains: form.domains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean),
    groupsClaim: form.groupsClaim,
    roleMappings: form.roleMappings.filter((m) => m.group.trim()),
    enabled: form.enabled,
    ssoOnly: form.enabled && form.ssoOnly,
  };
  const parsed =
    form.protocol === 'SAML'
      ? PutSamlSsoRequestSchema.safeParse({ protocol: 'SAML', ...samlSourceOf(form), ...common })
      : PutOidcSsoRequestSchema.safeParse({
          issuer: form.issuer.trim(),
          clientId: form.clientId,
          ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
          ...common,
        });
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { ok: false, errors };
}
