import { ConflictError, EmailTakenError } from '#shared/domain/errors.ts';
import type { InvitationRecord, InvitationRepository } from '#shared/domain/invitations/ports.ts';
import { isLapsed, listStatusOf } from '#shared/domain/invitations/view.ts';

/**
 * Invitations in memory, with the DynamoDB adapter's contract: one pending invitation per e-mail per hospital (the
 * lock), status moves only out of PENDING, the pending counters of the hospital (`H#<id>`) and team (`T#<id>`), and
 * pages newest first whose `lastKey` names the last invitation of the page.
 */
export function createMemoryInvitationRepository(): InvitationRepository & {
  invitations: Map<string, InvitationRecord>;
  locks: Map<string, string>;
  counters: Map<string, number>;
} {
  const invitations = new Map<string, InvitationRecord>();
  const locks = new Map<string, string>();
  const counters = new Map<string, number>();
  const k = (h: string, id: string) => `${h}/${id}`;
  const bump = (inv: InvitationRecord, d: number) => {
    counters.set(`H#${inv.hospitalId}`, (counters.get(`H#${inv.hospitalId}`) ?? 0) + d);
    if (inv.teamId) counters.set(`T#${inv.teamId}`, (counters.get(`T#${inv.teamId}`) ?? 0) + d);
  };
  return {
    invitations,
    locks,
    counters,
    async create(inv) {
      const lock = k(inv.hospitalId, inv.emailKey);
      if (locks.has(lock)) throw new EmailTakenError('EMAIL_ALREADY_INVITED');
      locks.set(lock, inv.id);
      invitations.set(k(inv.hospitalId, inv.id), { ...inv });
      bump(inv, 1);
    },
    async get(h, id) {
      return invitations.get(k(h, id));
    },
    async findByTokenHash(hash) {
      return [...invitations.values()].find((i) => i.tokenHash === hash);
    },
    async pendingIdForEmail(h, emailKey) {
      return locks.get(k(h, emailKey));
    },
    async listPage({ hospitalId, teamId, limit, startKey, status, now }) {
      const order = (i: InvitationRecord) => `${i.createdAt}#${i.id}`;
      const all = [...invitations.values()]
        .filter((i) => i.hospitalId === hospitalId && (!teamId || i.teamId === teamId))
        .filter((i) => !startKey || order(i) < startKey.at!)
        .sort((a, b) => order(b).localeCompare(order(a)));
      // As the table does: the filter applies to the `limit` read.
      const read = all.slice(0, limit);
      const last = read.at(-1);
      return {
        items: status ? read.filter((i) => listStatusOf(i, now) === status) : read,
        lastKey: all.length > limit && last ? { at: order(last) } : undefined,
      };
    },
    async tally(hospitalId, teamId, now) {
      const own = [...invitations.values()].filter(
        (i) => i.hospitalId === hospitalId && (!teamId || i.teamId === teamId),
      );
      const pending = own.filter((i) => i.status === 'PENDING');
      return {
        all: own.length,
        storedPending: counters.get(teamId ? `T#${teamId}` : `H#${hospitalId}`) ?? 0,
        accepted: own.filter((i) => i.status === 'ACCEPTED').length,
        storedExpired: own.filter((i) => i.status === 'EXPIRED').length,
        lapsed: pending.filter((i) => isLapsed(i, now)).length,
        unsentLive: pending.filter((i) => !i.sentAt && !isLapsed(i, now)).length,
      };
    },
    async updatePending({ hospitalId: h, id }, fields) {
      const current = invitations.get(k(h, id));
      if (!current || current.status !== 'PENDING') throw new ConflictError();
      const next = { ...current, ...fields };
      invitations.set(k(h, id), next);
      return next;
    },
    async setDelivery(h, id, delivery) {
      const current = invitations.get(k(h, id));
      if (!current) return false;
      invitations.set(k(h, id), { ...current, delivery });
      return true;
    },
    async leavePending(inv, status, fields) {
      const current = invitations.get(k(inv.hospitalId, inv.id));
      if (!current || current.status !== 'PENDING') throw new ConflictError();
      const next = { ...current, ...fields, status };
      invitations.set(k(inv.hospitalId, inv.id), next);
      if (locks.get(k(inv.hospitalId, inv.emailKey)) === inv.id) locks.delete(k(inv.hospitalId, inv.emailKey));
      bump(inv, -1);
      return next;
    },
  };
}
