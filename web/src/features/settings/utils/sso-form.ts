import { PutSsoRequestSchema, type PutSsoRequest, type SsoSettings } from '#shared/schemas/api/sso.ts';

/** The SSO tab's fields as typed: domains one text, role mappings rows (docs/sso.md#the-sso-tab). */
export type SsoForm = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  groupsClaim: string;
  roleMappings: { group: string; role: string }[];
  enabled: boolean;
  ssoOnly: boolean;
};

export function ssoFormOf(sso: SsoSettings | null): SsoForm {
  return {
    issuer: sso?.issuer ?? '',
    clientId: sso?.clientId ?? '',
    clientSecret: '',
    domains: sso?.domains.join(', ') ?? '',
    groupsClaim: sso?.groupsClaim ?? 'groups',
    roleMappings: sso?.roleMappings.map((m) => ({ ...m })) ?? [],
    enabled: sso?.enabled ?? false,
    ssoOnly: sso?.ssoOnly ?? false,
  };
}

/** The request of a filled form, or the first message per field (the schema's). */
export function ssoRequestOf(
  form: SsoForm,
): { ok: true; request: PutSsoRequest } | { ok: false; errors: Record<string, string> } {
  const parsed = PutSsoRequestSchema.safeParse({
    issuer: form.issuer.trim(),
    clientId: form.clientId,
    ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
    domains: form.domains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean),
    groupsClaim: form.groupsClaim,
    roleMappings: form.roleMappings.filter((m) => m.group.trim()),
    enabled: form.enabled,
    ssoOnly: form.enabled && form.ssoOnly,
  });
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { ok: false, errors };
}
