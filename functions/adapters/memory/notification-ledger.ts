import type { DigestItem, NotificationLedger } from '#shared/domain/notifications/ports.ts';

/** The notification ledger in memory, with the DynamoDB adapter's contract (claims once, digest items by key). */
export function createMemoryNotificationLedger(): NotificationLedger & {
  claims: Set<string>;
  digest: Map<string, DigestItem>;
} {
  const claims = new Set<string>();
  const digest = new Map<string, DigestItem>();
  const attempts = new Map<string, string[]>();
  return {
    claims,
    digest,
    claimOnce: async (h, key) => {
      if (claims.has(`${h}/${key}`)) return false;
      claims.add(`${h}/${key}`);
      return true;
    },
    queueDigestItem: async (item) =>
      void digest.set(`${item.hospitalId}/${item.period}/${item.userId}#${item.createdAt}#${item.id}`, { ...item }),
    listDigestItems: async (h, period) =>
      [...digest.entries()]
        .filter(([key]) => key.startsWith(`${h}/${period}/`))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([, item]) => item),
    noteSignInAttempt: async (h, u, at, windowMs) => {
      const from = Date.parse(at) - windowMs;
      const kept = [...(attempts.get(`${h}/${u}`) ?? []).filter((a) => Date.parse(a) >= from), at].sort();
      attempts.set(`${h}/${u}`, kept);
      return kept;
    },
    clearSignInAttempts: async (h, u) => void attempts.delete(`${h}/${u}`),
  };
}
