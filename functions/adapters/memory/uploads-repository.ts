import type { UploadRepository, UploadSessionRecord } from '#shared/domain/uploads/ports.ts';

/** Upload sessions in memory; a session is found only within its own hospital, as the adapter keys it. */
export function createMemoryUploadRepository(): UploadRepository & { sessions: Map<string, UploadSessionRecord> } {
  const sessions = new Map<string, UploadSessionRecord>();
  return {
    sessions,
    async createSession(s) {
      sessions.set(s.sessionId, s);
    },
    async getSession(h, id) {
      const s = sessions.get(id);
      return s?.hospitalId === h ? s : undefined;
    },
    async setSessionStatus(_h, id, status) {
      sessions.set(id, { ...sessions.get(id)!, status });
    },
  };
}
