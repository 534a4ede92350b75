import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { startJob, type JobKindHandler, type JobStartDeps, type JobWorkItem } from '#shared/domain/jobs/runner.ts';
import type { JobRecord, JobStore } from '#shared/domain/jobs/ports.ts';
import { toJob } from '#shared/domain/jobs/view.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';
import { auditHospital } from './audit-trail.ts';
import { EMPTY_HEAD, verifyChain, type ChainedAuditEvent, type ChainHead } from './chain.ts';
import { checkDigests, type DigestDeps } from './digests.ts';

/**
 * The full verification as a job (docs/jobs.md): the whole chain of a long-lived hospital takes longer than an API
 * request may. The request chains what is pending, fixes the head the walk ends at and answers 202 with the job; the
 * job checks every signed digest (one item), then walks the chain a range of positions at a time (one item each, from
 * the cursor: the last position and hash of the range before), and at the end keeps the outcome on the head and
 * appends AUDIT_CHAIN_VERIFIED, as the request's own verification does (docs/domain.md#verification).
 */

/** Positions one item of the walk covers. */
export const VERIFICATION_RANGE = 1000;

type VerificationInput = { head: ChainHead | null };
type RangeValue = { kind: 'range'; start: ChainHead; end: ChainHead };
type DigestsValue = { kind: 'digests' };

export type VerificationJobDeps = {
  audit: AuditLog;
  clock: Clock;
  digests: DigestDeps['digests'];
  jobs: JobStore;
};

const inputOf = (job: JobRecord) => job.input as VerificationInput;
const headOf = (job: JobRecord): ChainHead => inputOf(job).head ?? EMPTY_HEAD;

/** Starts the full verification of the caller's hospital (or, for the super admin, the one named). */
export async function startAuditVerification(
  input: { hospitalId?: string },
  caller: Caller,
  deps: { audit: AuditLog; directory: Directory } & JobStartDeps,
): Promise<JobAccepted> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  await deps.audit.settle?.(hospitalId);
  const head = await deps.audit.head(hospitalId);
  const job = await startJob(
    {
      kind: 'AUDIT_VERIFICATION',
      ownerHospitalId: caller.hospitalId,
      hospitalId,
      input: { head: head ? { seq: head.seq, hash: head.hash } : null } satisfies VerificationInput,
      // The digests, then one item per range of positions.
      total: 1 + Math.ceil((head?.seq ?? 0) / VERIFICATION_RANGE),
      createdBy: { userId: caller.userId, name: `${caller.firstName} ${caller.lastName}` },
    },
    deps,
  );
  return { jobId: job.id, job: toJob(job) };
}

/** The chain's events after `start`, up to `end`, a page at a time. */
async function* rangePages(
  audit: AuditLog,
  hospitalId: string,
  start: number,
  end: number,
): AsyncIterable<readonly ChainedAuditEvent[]> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await audit.chainPage(hospitalId, startKey, start || undefined);
    const items = page.items.filter((e) => e.seq <= end);
    yield items;
    if (items.length < page.items.length) return;
    startKey = page.lastKey;
  } while (startKey);
}

async function eventAt(audit: AuditLog, hospitalId: string, seq: number): Promise<ChainedAuditEvent | undefined> {
  const event = (await audit.chainPage(hospitalId, undefined, seq - 1 || undefined)).items[0];
  return event?.seq === seq ? event : undefined;
}

export const auditVerificationJob: JobKindHandler<VerificationJobDeps> = {
  itemsAtOnce: 1,
  async chunk(job, cursor, deps) {
    const head = headOf(job);
    const seq = job.chunks + 1;
    if (cursor === null) {
      const value: DigestsValue = { kind: 'digests' };
      return {
        items: [{ seq, subject: 'signed digests', value }],
        next: head.seq > 0 ? JSON.stringify(EMPTY_HEAD) : null,
      };
    }
    const start = JSON.parse(cursor) as ChainHead;
    // The range's last position and hash, read now, are the next range's start (its first event must link to it).
    let end: ChainHead = { seq: Math.min(start.seq + VERIFICATION_RANGE, head.seq), hash: head.hash };
    if (end.seq < head.seq) {
      const last = await eventAt(deps.audit, job.hospitalId, end.seq);
      end = { seq: end.seq, hash: last?.hash ?? '' };
    }
    const value: RangeValue = { kind: 'range', start, end };
    return {
      items: [{ seq, subject: `events ${start.seq + 1}-${end.seq}`, value }],
      next: end.seq >= head.seq ? null : JSON.stringify(end),
    };
  },
  async run(job, item: JobWorkItem, deps) {
    const value = item.value as RangeValue | DigestsValue;
    if (value.kind === 'digests') {
      const check = await checkDigests(job.hospitalId, headOf(job), 0, { digests: deps.digests });
      if (check.brokenAt)
        return {
          outcome: 'FAILED',
          code: 'AUDIT_CHAIN_BROKEN',
          ref: `digest:${check.brokenAt.toSeq}:${check.brokenAt.reason}`,
        };
      for (const anchor of check.anchors) {
        const event = await eventAt(deps.audit, job.hospitalId, anchor.toSeq);
        if (event?.hash !== anchor.headHash)
          return { outcome: 'FAILED', code: 'AUDIT_CHAIN_BROKEN', ref: `digest:${anchor.toSeq}:HEAD_HASH_MISMATCH` };
      }
      return { outcome: 'SUCCEEDED', ref: `digests:${check.checked}` };
    }
    const walked = await verifyChain(
      rangePages(deps.audit, job.hospitalId, value.start.seq, value.end.seq),
      value.end,
      value.start,
    );
    if (walked.brokenAt)
      return {
        outcome: 'FAILED',
        code: 'AUDIT_CHAIN_BROKEN',
        ref: `event:${walked.brokenAt.seq}:${walked.brokenAt.reason}`,
      };
    return { outcome: 'SUCCEEDED', ref: `events:${walked.checkedEvents}` };
  },
  async finish(job, deps) {
    const head = headOf(job);
    const verified = job.failed === 0;
    const at = deps.clock.now();
    const first = verified
      ? undefined
      : (await deps.jobs.listResults({ ownerHospitalId: job.ownerHospitalId, jobId: job.id }, 100)).items.find(
          (r) => r.outcome === 'FAILED',
        );
    const brokenAtSeq = first?.ref ? Number(first.ref.split(':')[1]) : undefined;
    await deps.audit.recordVerification(job.hospitalId, {
      at,
      verified,
      checkedEvents: verified ? head.seq : Math.max(0, (brokenAtSeq ?? 1) - 1),
      ...(brokenAtSeq !== undefined ? { brokenAtSeq } : {}),
      ...(verified && head.seq > 0 ? { verifiedSeq: head.seq, verifiedHash: head.hash } : {}),
    });
    await deps.audit.record({
      hospitalId: job.hospitalId,
      action: 'AUDIT_CHAIN_VERIFIED',
      outcome: verified ? 'SUCCESS' : 'FAILURE',
      actorUserId: job.createdBy.userId,
      actorName: job.createdBy.name,
      details: {
        full: true,
        jobId: job.id,
        checkedEvents: verified ? head.seq : 0,
        ...(first?.ref ? { brokenAt: first.ref } : {}),
      },
    });
  },
};
