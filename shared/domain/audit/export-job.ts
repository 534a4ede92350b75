import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { startJob, type JobKindHandler, type JobStartDeps } from '#shared/domain/jobs/runner.ts';
import type { JobRecord, JobRef, JobStore } from '#shared/domain/jobs/ports.ts';
import { toJob } from '#shared/domain/jobs/view.ts';
import { EXPORT_RETENTION_DAYS, studyKeys } from '#shared/domain/object-keys.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { AuditExport, AuditFilter } from '#shared/schemas/api/audit.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';
import { auditCsv, auditCsvRows, auditHospital, auditQuery, searchAuditIndex } from './audit-trail.ts';

/**
 * The audit log exported as a job (docs/jobs.md, docs/domain.md#audit-export): the CSV route builds at most
 * AUDIT_EXPORT_MAX_ROWS rows within one request; this job has no row cap. Each chunk reads one page of the audit
 * search from the stored cursor (the page's start key) and writes its rows, as CSV, to a part object named by the
 * page's position, so a page read again replaces its part (the rows are written by position). `finish` joins the parts under the header into one CSV
 * under the studies bucket's exports/ prefix (expired by the bucket after EXPORT_RETENTION_DAYS) and appends
 * AUDIT_EXPORTED, as the CSV route does.
 */

/** Events one chunk reads (one page of the search). */
export const AUDIT_EXPORT_PAGE = 500;
/** How long a link handed to the requester works. */
export const AUDIT_EXPORT_LINK_TTL_SECONDS = 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

type AuditExportInput = { filter: Omit<AuditFilter, 'hospitalId'> };
type PageValue = { rows: number };

export type AuditExportJobDeps = { audit: AuditLog; objects: ObjectStore; jobs: JobStore; clock: Clock };

const inputOf = (job: Pick<JobRecord, 'input'>) => job.input as AuditExportInput;
const fileNameOf = (job: JobRecord) => `audit-log-${job.hospitalId}-${job.createdAt.slice(0, 10)}.csv`;

/** The finished CSV, named by the job so a rebuilt one replaces itself. */
export const auditExportKey = (job: Pick<JobRecord, 'ownerHospitalId' | 'id'>) =>
  studyKeys.export(job.ownerHospitalId, job.id).replace(/\.zip$/, '.csv');
/** One page's rows, by the page's position (1-based). */
const partPrefix = (job: Pick<JobRecord, 'ownerHospitalId' | 'id'>) =>
  `${studyKeys.export(job.ownerHospitalId, job.id).replace(/\.zip$/, '')}.parts/`;
const partKey = (job: Pick<JobRecord, 'ownerHospitalId' | 'id'>, seq: number) =>
  `${partPrefix(job)}${String(seq).padStart(8, '0')}.csv`;

/** Starts an export of the filtered audit log (the same hospitals and filters as the CSV route); 202 with the job. */
export async function startAuditExport(
  input: AuditFilter,
  caller: Caller,
  deps: JobStartDeps & { directory: Directory },
): Promise<JobAccepted> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  const filter = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => k !== 'hospitalId' && v !== undefined),
  ) as AuditExportInput['filter'];
  const job = await startJob(
    {
      kind: 'AUDIT_EXPORT',
      ownerHospitalId: caller.hospitalId,
      hospitalId,
      input: { filter } satisfies AuditExportInput,
      total: null,
      createdBy: { userId: caller.userId, name: `${caller.firstName} ${caller.lastName}` },
    },
    deps,
  );
  return { jobId: job.id, job: toJob(job) };
}

/** The caller's own audit export: its progress, then a fresh link while the CSV is kept. Anyone else's answers 404. */
export async function getAuditExport(
  exportId: string,
  caller: Caller,
  deps: { objects: ObjectStore; jobs: JobStore; clock: Clock },
): Promise<AuditExport> {
  const job = await deps.jobs.get({ ownerHospitalId: caller.hospitalId, jobId: exportId });
  if (!job || job.kind !== 'AUDIT_EXPORT' || job.createdBy.userId !== caller.userId)
    throw new NotFoundError('JOB_NOT_FOUND');
  return { id: job.id, hospitalId: job.hospitalId, job: toJob(job), download: await downloadOf(job, deps) };
}

async function downloadOf(
  job: JobRecord,
  deps: { objects: ObjectStore; clock: Clock },
): Promise<AuditExport['download']> {
  if (job.status !== 'SUCCEEDED' || !job.finishedAt) return null;
  const now = Date.parse(deps.clock.now());
  const keptUntil = Date.parse(job.finishedAt) + EXPORT_RETENTION_DAYS * DAY_MS;
  const seconds = Math.min(AUDIT_EXPORT_LINK_TTL_SECONDS, Math.floor((keptUntil - now) / 1000));
  if (seconds <= 0) return null;
  const key = auditExportKey(job);
  const stored = (await deps.objects.list('studies', key)).find((o) => o.key === key);
  if (!stored) return null;
  return {
    url: await deps.objects.presignGet('studies', key, seconds),
    expiresAt: new Date(now + seconds * 1000).toISOString(),
    fileName: fileNameOf(job),
    byteSize: stored.size,
  };
}

/** Rows of every page written, from the results (each page's `ref` is `rows:<n>`). */
async function rowsWritten(ref: JobRef, jobs: JobStore): Promise<number> {
  let rows = 0;
  let startKey: Record<string, string> | undefined;
  do {
    const page = await jobs.listResults(ref, 500, startKey);
    for (const r of page.items) if (r.outcome === 'SUCCEEDED') rows += Number(r.ref?.split(':')[1] ?? 0);
    startKey = page.lastKey;
  } while (startKey);
  return rows;
}

/** The AUDIT_EXPORT job kind (docs/jobs.md). */
export const auditExportJob: JobKindHandler<AuditExportJobDeps> = {
  itemsAtOnce: 1,
  /**
   * Reads the page after the cursor and writes its rows as the part of its position. The write is done here, not
   * as the item's work: a failed write then fails the chunk, which runs again from the same cursor, where an item's
   * failure would leave the page's rows out of the CSV.
   */
  async chunk(job, cursor, deps) {
    const query = auditQuery(job.hospitalId, inputOf(job).filter, AUDIT_EXPORT_PAGE);
    const startKey = cursor === null ? undefined : (JSON.parse(cursor) as Record<string, string>);
    const page = await searchAuditIndex(deps.audit, { ...query, startKey });
    const seq = job.chunks + 1;
    const rows = auditCsvRows(page.items);
    await deps.objects.put('studies', partKey(job, seq), new TextEncoder().encode(rows), 'text/csv');
    const value: PageValue = { rows: page.items.length };
    return {
      items: [{ seq, subject: `page ${seq}`, value }],
      next: page.lastKey ? JSON.stringify(page.lastKey) : null,
    };
  },
  async run(_job, item) {
    return { outcome: 'SUCCEEDED', ref: `rows:${(item.value as PageValue).rows}` };
  },
  async finish(job, deps) {
    const ref = { ownerHospitalId: job.ownerHospitalId, jobId: job.id };
    const parts = (await deps.objects.list('studies', partPrefix(job)))
      .map((o) => o.key)
      .sort()
      .slice(0, job.processed);
    const bodies = await Promise.all(
      parts.map(async (k) => new TextDecoder().decode(await deps.objects.get('studies', k))),
    );
    const csv = auditCsv(bodies.filter((b) => b.length > 0));
    await deps.objects.put('studies', auditExportKey(job), new TextEncoder().encode(csv), 'text/csv; charset=utf-8');
    await deps.audit.record({
      hospitalId: job.hospitalId,
      action: 'AUDIT_EXPORTED',
      actorUserId: job.createdBy.userId,
      actorName: job.createdBy.name,
      details: { rows: await rowsWritten(ref, deps.jobs), exportId: job.id, ...inputOf(job).filter },
    });
  },
};
