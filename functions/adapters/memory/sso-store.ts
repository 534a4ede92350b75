import type { IdentityProviders, IdentityProviderSpec, SsoStore, StoredSso } from '#shared/domain/settings/ports.ts';

/** Single sign-on configurations in memory, with the DynamoDB adapter's contract: a domain has one hospital. */
export function createMemorySsoStore(): SsoStore {
  const items = new Map<string, StoredSso>();
  const domains = new Map<string, string>();
  return {
    get: async (hospitalId) => structuredClone(items.get(hospitalId)),
    async save(hospitalId, sso) {
      const taken = sso.domains.find((d) => domains.has(d) && domains.get(d) !== hospitalId);
      if (taken) return { taken };
      for (const d of items.get(hospitalId)?.domains ?? []) domains.delete(d);
      for (const d of sso.domains) domains.set(d, hospitalId);
      items.set(hospitalId, structuredClone(sso));
      return {};
    },
    async remove(hospitalId) {
      for (const d of items.get(hospitalId)?.domains ?? []) domains.delete(d);
      items.delete(hospitalId);
    },
    async byDomain(domain) {
      const hospitalId = domains.get(domain);
      const sso = hospitalId ? items.get(hospitalId) : undefined;
      return sso && hospitalId ? { ...structuredClone(sso), hospitalId } : undefined;
    },
  };
}

/**
 * A user pool's providers in memory: what each holds (an OIDC provider's secret, a SAML provider's metadata) and
 * whether the site client lists it.
 */
export function createMemoryIdentityProviders(): IdentityProviders & { providers: Map<string, IdentityProviderSpec> } {
  const providers = new Map<string, IdentityProviderSpec>();
  return {
    providers,
    async upsert(spec) {
      const held = providers.get(spec.name);
      if (spec.type === 'SAML') {
        const kept = held?.type === 'SAML' && !spec.metadataUrl && !spec.metadataXml ? held : undefined;
        const source = kept ? { metadataUrl: kept.metadataUrl, metadataXml: kept.metadataXml } : spec;
        if (!source.metadataUrl && !source.metadataXml)
          throw new Error(`The identity provider ${spec.name} needs its SAML metadata`);
        providers.set(spec.name, { ...spec, ...source });
        return;
      }
      const clientSecret = spec.clientSecret ?? (held?.type !== 'SAML' ? held?.clientSecret : undefined);
      if (!clientSecret) throw new Error(`The identity provider ${spec.name} needs a client secret`);
      providers.set(spec.name, { ...spec, clientSecret });
    },
    async remove(name) {
      providers.delete(name);
    },
  };
}
