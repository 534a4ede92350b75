import type { JobRecord, JobRef, JobResultRecord, JobStore } from '#shared/domain/jobs/ports.ts';

/** Jobs in memory (iws and the unit tests), with the same conditional advance as the table's store. */
export function createMemoryJobStore(): JobStore & { results(ref: JobRef): JobResultRecord[] } {
  const jobs = new Map<string, JobRecord>();
  const results = new Map<string, Map<number, JobResultRecord>>();
  const id = (ref: JobRef) => `${ref.ownerHospitalId}/${ref.jobId}`;
  const resultsOf = (ref: JobRef) => {
    const found = results.get(id(ref)) ?? new Map<number, JobResultRecord>();
    results.set(id(ref), found);
    return found;
  };
  return {
    async create(job) {
      const ref = { ownerHospitalId: job.ownerHospitalId, jobId: job.id };
      if (jobs.has(id(ref))) throw new Error(`Job ${job.id} exists`);
      jobs.set(id(ref), structuredClone(job));
    },
    async get(ref) {
      const job = jobs.get(id(ref));
      return job ? structuredClone(job) : undefined;
    },
    async advance(ref, expectedChunks, change) {
      const job = jobs.get(id(ref));
      if (!job || job.chunks !== expectedChunks) return false;
      Object.assign(job, {
        cursor: change.cursor,
        status: change.status,
        finishedAt: change.finishedAt,
        updatedAt: change.updatedAt,
        chunkFailures: 0,
        chunks: job.chunks + 1,
        processed: job.processed + change.processed,
        succeeded: job.succeeded + change.succeeded,
        failed: job.failed + change.failed,
        ...(change.total !== undefined ? { total: change.total } : {}),
        ...(change.error !== undefined ? { error: change.error } : {}),
      });
      return true;
    },
    async mark(ref, fields) {
      const job = jobs.get(id(ref));
      if (job) Object.assign(job, fields);
    },
    async putResults(ref, list) {
      const stored = resultsOf(ref);
      for (const r of list) stored.set(r.seq, { ...r });
    },
    async listResults(ref, limit, startKey) {
      const all = [...resultsOf(ref).values()].sort((a, b) => a.seq - b.seq);
      const from = startKey ? Number(startKey.seq) : 0;
      const items = all.filter((r) => r.seq > from).slice(0, limit);
      const more = all.some((r) => r.seq > (items.at(-1)?.seq ?? from)) && items.length === limit;
      return { items, ...(more ? { lastKey: { seq: String(items.at(-1)!.seq) } } : {}) };
    },
    results: (ref) => [...resultsOf(ref).values()].sort((a, b) => a.seq - b.seq),
  };
}
