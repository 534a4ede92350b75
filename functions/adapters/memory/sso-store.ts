import type { IdentityProviders, OidcProviderSpec, SsoStore, StoredSso } from '#shared/domain/settings/ports.ts';

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

/** A user pool's OIDC providers in memory: what each holds (its secret included) and whether the site client lists it. */
export function createMemoryIdentityProviders(): IdentityProviders & { providers: Map<string, OidcProviderSpec> } {
  const providers = new Map<string, OidcProviderSpec>();
  return {
    providers,
    async upsert(spec) {
      const held = providers.get(spec.name);
      const clientSecret = spec.clientSecret ?? held?.clientSecret;
      if (!clientSecret) throw new Error(`The identity provider ${spec.name} needs a client secret`);
      providers.set(spec.name, { ...spec, clientSecret });
    },
    async remove(name) {
      providers.delete(name);
    },
  };
}
