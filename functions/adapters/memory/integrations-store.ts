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

/** App clients numbered instead of made in a user pool; what was created and removed is kept, in order. */
export function createMemoryMachineClients(): MachineClients & { created: string[]; removed: string[] } {
  const created: string[] = [];
  const removed: string[] = [];
  return {
    created,
    removed,
    async create(name) {
      created.push(name);
      return { clientId: `client-${created.length}`, clientSecret: `secret-${created.length}` };
    },
    async remove(clientId) {
      removed.push(clientId);
    },
  };
}
