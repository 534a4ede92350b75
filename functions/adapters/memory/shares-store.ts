import { ConflictError } from '#shared/domain/errors.ts';
import type {
  PatientSessionRecord,
  PatientShareRecord,
  ShareAccessRecord,
  ShareApprovalRecord,
  ShareStore,
  TeamShareRecord,
} from '#shared/domain/shares/ports.ts';

/** The share store in memory, with the DynamoDB adapter's contracts (one grant per recipient, versioned updates). */
export function createMemoryShareStore(): ShareStore & {
  team: Map<string, TeamShareRecord>;
  patient: Map<string, PatientShareRecord>;
  events: ShareAccessRecord[];
} {
  const team = new Map<string, TeamShareRecord>();
  const patient = new Map<string, PatientShareRecord>();
  const sessions = new Map<string, PatientSessionRecord>();
  const events: ShareAccessRecord[] = [];
  const hits = new Map<string, number>();
  const approvals = new Map<string, ShareApprovalRecord>();
  const grantKey = (h: string, r: { type: string; id: string }, d: string) => `${h}|${r.type}|${r.id}|${d}`;
  const grants = () =>
    new Map(
      [...team.values()].map((s) => [
        grantKey(s.hospitalId, { type: s.recipientType, id: s.recipientId }, s.datasetId),
        s,
      ]),
    );
  return {
    team,
    patient,
    events,
    async putTeamShare(share) {
      if (
        grants().has(grantKey(share.hospitalId, { type: share.recipientType, id: share.recipientId }, share.datasetId))
      )
        throw new ConflictError();
      team.set(share.id, structuredClone(share));
    },
    getTeamShare: async (h, d, id) => {
      const s = team.get(id);
      return s && s.hospitalId === h && s.datasetId === d ? structuredClone(s) : undefined;
    },
    listTeamSharesOfDataset: async (h, d) => [...team.values()].filter((s) => s.hospitalId === h && s.datasetId === d),
    listTeamSharesFromTeam: async (h, t) =>
      [...team.values()]
        .filter((s) => s.hospitalId === h && s.sourceTeamId === t)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    deleteTeamShare: async (share) => void team.delete(share.id),
    findGrant: async (h, r, d) => grants().get(grantKey(h, r, d)),
    listReceived: async (h, r) =>
      [...team.values()].filter((s) => s.hospitalId === h && s.recipientType === r.type && s.recipientId === r.id),
    putApproval: async (a) => void approvals.set(`${a.hospitalId}|${a.id}`, structuredClone(a)),
    getApproval: async (h, id) => structuredClone(approvals.get(`${h}|${id}`)),
    listApprovals: async (h) =>
      [...approvals.values()].filter((a) => a.hospitalId === h).map((a) => structuredClone(a)),
    async takeApproval(a) {
      if (!approvals.delete(`${a.hospitalId}|${a.id}`)) throw new ConflictError();
    },
    putPatientShare: async (share) => void patient.set(share.id, structuredClone(share)),
    getPatientShare: async (h, d, id) => {
      const s = patient.get(id);
      return s && s.hospitalId === h && s.datasetId === d ? structuredClone(s) : undefined;
    },
    listPatientShares: async (h, d) =>
      [...patient.values()].filter((s) => s.hospitalId === h && s.datasetId === d).map((s) => structuredClone(s)),
    listHospitalPatientShares: async (h) =>
      [...patient.values()].filter((s) => s.hospitalId === h).map((s) => structuredClone(s)),
    countActivePastExpiry: async (h, now) =>
      [...patient.values()].filter(
        (s) => s.hospitalId === h && s.status === 'ACTIVE' && Date.parse(s.expiresAt) <= Date.parse(now),
      ).length,
    listActivePastExpiry: async (h, now, page) => {
      const due = [...patient.values()]
        .filter((s) => s.hospitalId === h && s.status === 'ACTIVE' && Date.parse(s.expiresAt) <= Date.parse(now))
        .sort((a, b) => `${a.expiresAt}#${a.id}`.localeCompare(`${b.expiresAt}#${b.id}`));
      const after = page.startKey?.id;
      const from = after === undefined ? 0 : due.findIndex((s) => `${s.expiresAt}#${s.id}` > after);
      const items = from < 0 ? [] : due.slice(from, from + page.limit);
      const last = items.at(-1);
      return {
        items: items.map((s) => structuredClone(s)),
        ...(last && from + page.limit < due.length ? { lastKey: { id: `${last.expiresAt}#${last.id}` } } : {}),
      };
    },
    findPatientShareByTokenHash: async (hash) => {
      const s = [...patient.values()].find((p) => p.tokenHash === hash);
      return s ? structuredClone(s) : undefined;
    },
    async updatePatientShare(share, fields, expectedVersion) {
      const current = patient.get(share.id);
      if (!current || current.version !== expectedVersion) throw new ConflictError();
      const next = { ...current, ...fields, version: current.version + 1 } as PatientShareRecord;
      for (const [k, v] of Object.entries(fields)) if (v === undefined) delete (next as Record<string, unknown>)[k];
      patient.set(share.id, next);
      return structuredClone(next);
    },
    putSession: async (s) => void sessions.set(s.sessionHash, { ...s }),
    getSession: async (hash) => sessions.get(hash),
    addAccessEvent: async (e) => void events.push({ ...e }),
    listAccessEvents: async (h, id) => events.filter((e) => e.hospitalId === h && e.shareId === id),
    async hit(key, windowSeconds, now) {
      const bucket = `${key}|${Math.floor(Date.parse(now) / 1000 / windowSeconds)}`;
      const n = (hits.get(bucket) ?? 0) + 1;
      hits.set(bucket, n);
      return n;
    },
  };
}
