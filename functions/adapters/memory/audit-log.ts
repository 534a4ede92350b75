import type { AuditChainHead, AuditEvent, AuditLog } from '#shared/domain/ports.ts';
import { chainNext, EMPTY_HEAD, type ChainedAuditEvent } from '#shared/domain/audit/chain.ts';

export type MemoryAuditLog = AuditLog & { events: ChainedAuditEvent[]; heads: Map<string, AuditChainHead> };

/**
 * The audit log in memory, chained exactly as the DynamoDB adapter chains it (for the CLI's single-process runs and
 * the tests). Appends are serialised through one promise, the in-process stand-in for the head's conditional update.
 * Ids count up from 1 and events are stamped with the wall clock unless `newId` and `now` (given the number of events
 * so far) say otherwise.
 */
export function createMemoryAuditLog(
  options: { now?: (count: number) => string; newId?: (count: number) => string } = {},
): MemoryAuditLog {
  const now = options.now ?? (() => new Date().toISOString());
  const newId = options.newId ?? ((count: number) => String(count + 1));
  const events: ChainedAuditEvent[] = [];
  const heads = new Map<string, AuditChainHead>();
  const reads = new Map<string, string>();
  let tail: Promise<unknown> = Promise.resolve();
  const newestFirst = (a: AuditEvent, b: AuditEvent) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id.localeCompare(a.id));
  return {
    events,
    heads,
    record(entry) {
      const appended = tail.then(async () => {
        const head = heads.get(entry.hospitalId) ?? EMPTY_HEAD;
        const event = await chainNext(head, entry, newId(events.length), now(events.length));
        events.push(event);
        heads.set(entry.hospitalId, { ...heads.get(entry.hospitalId), seq: event.seq, hash: event.hash });
      });
      tail = appended.catch(() => undefined);
      return appended;
    },
    async listForDataset(hospitalId, datasetId) {
      return events.filter((e) => e.hospitalId === hospitalId && e.datasetId === datasetId);
    },
    async search(query) {
      const all = events
        .filter(
          (e) =>
            e.hospitalId === query.hospitalId &&
            (!query.actorUserId || e.actorUserId === query.actorUserId) &&
            (!query.targetId || e.datasetId === query.targetId || e.targetUserId === query.targetId) &&
            (!query.action || e.action === query.action) &&
            (!query.from || e.at >= query.from) &&
            (!query.to || e.at <= `${query.to}~`),
        )
        .sort(newestFirst);
      const start = query.startKey ? all.findIndex((e) => e.id === query.startKey!.id) + 1 : 0;
      const items = all.slice(start, start + query.limit);
      return { items, ...(start + query.limit < all.length ? { lastKey: { id: items.at(-1)!.id } } : {}) };
    },
    async chainPage(hospitalId, startKey, afterSeq) {
      const chain = events.filter((e) => e.hospitalId === hospitalId).sort((a, b) => a.seq - b.seq);
      const start = startKey ? Number(startKey.seq) : (afterSeq ?? 0);
      const items = chain.filter((e) => e.seq > start).slice(0, 100);
      return { items, ...(items.length === 100 ? { lastKey: { seq: String(items.at(-1)!.seq) } } : {}) };
    },
    async claimReadWindow(read) {
      const key = [read.hospitalId, read.actorUserId, read.datasetId, read.action].join('/');
      const last = reads.get(key);
      if (last && Date.parse(read.at) - Date.parse(last) < read.windowSeconds * 1000) return false;
      reads.set(key, read.at);
      return true;
    },
    async head(hospitalId) {
      return heads.get(hospitalId);
    },
    async recordVerification(hospitalId, verification) {
      heads.set(hospitalId, { ...(heads.get(hospitalId) ?? EMPTY_HEAD), lastVerification: verification });
    },
  };
}
