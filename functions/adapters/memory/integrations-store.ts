import type { IntegrationRecord, IntegrationStore, MachineClients } from '#shared/domain/integrations/ports.ts';

/**
 * Integrations in memory, with the DynamoDB adapter's contract: an AE title is claimed once over the deployment, the
 * lookups find active integrations only.
 */
export function createMemoryIntegrationStore(): IntegrationStore & { items: Map<string, IntegrationRecord> } {
  const items = new Map<string, IntegrationRecord>();
  const aeTitles = new Map<string, string>();
  return {
    items,
    async create(record) {
      if (record.aeTitle && aeTitles.has(record.aeTitle)) return false;
      if (record.aeTitle) aeTitles.set(record.aeTitle, record.id);
      items.set(record.id, structuredClone(record));
      return true;
    },
    get: async (h, id) => (items.get(id)?.hospitalId === h ? structuredClone(items.get(id)) : undefined),
    list: async (h) => [...items.values()].filter((i) => i.hospitalId === h).map((i) => structuredClone(i)),
    byClientId: async (clientId) => [...items.values()].find((i) => i.clientId === clientId && i.status === 'ACTIVE'),
    byAeTitle: async (aeTitle) => {
      const id = aeTitles.get(aeTitle);
      return id ? items.get(id) : undefined;
    },
    async revoke(h, id, at) {
      const item = items.get(id)!;
      const revoked = { ...item, status: 'REVOKED' as const, revokedAt: at };
      items.set(id, revoked);
      if (item.aeTitle) aeTitles.delete(item.aeTitle);
      return structuredClone(revoked);
    },
    touch: async () => undefined,
  };
}

/**
 * App clients numbered instead of made in a user pool; what was created and removed is kept, in order, and `grants`
 * holds the scopes of each client whose client-credentials grant is on (none while suspended).
 */
export function createMemoryMachineClients(): MachineClients & {
  created: string[];
  removed: string[];
  grants: Map<string, readonly string[]>;
} {
  const created: string[] = [];
  const removed: string[] = [];
  const grants = new Map<string, readonly string[]>();
  return {
    created,
    removed,
    grants,
    async create(name, scopes) {
      created.push(name);
      const clientId = `client-${created.length}`;
      grants.set(clientId, [...scopes]);
      return { clientId, clientSecret: `secret-${created.length}` };
    },
    async remove(clientId) {
      removed.push(clientId);
      grants.delete(clientId);
    },
    async suspend(clientId) {
      if (grants.has(clientId)) grants.set(clientId, []);
    },
    async resume(clientId, scopes) {
      if (grants.has(clientId)) grants.set(clientId, [...scopes]);
    },
  };
}
