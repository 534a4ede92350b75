import type { VerifyAuditResponse } from '#shared/schemas/api/audit.ts';
import type { Job, JobResult } from '#shared/schemas/api/jobs.ts';

type DigestReason = NonNullable<NonNullable<VerifyAuditResponse['digests']>['brokenAt']>['reason'];

/** What each signed-digest failure means, in the words of docs/domain.md#verification. */
export const DIGEST_REASON_TEXT: Record<DigestReason, string> = {
  SIGNATURE_INVALID: 'its signature does not match (altered or forged)',
  DIGEST_LINK_BROKEN: 'it does not name the digest before it (a digest was removed)',
  HEAD_HASH_MISMATCH: 'an event it covers was changed',
  DIGEST_AHEAD_OF_CHAIN: 'it covers events that are no longer in the trail',
  DIGEST_UNREADABLE: 'it is not a digest',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The toast a verification's answer shows: the chain's first broken link, or the signed digest that failed. */
export function verificationSummary(result: VerifyAuditResponse): {
  type: 'success' | 'error';
  title: string;
  description: string;
} {
  const digests = result.digests;
  if (result.verified) {
    const signed = digests && digests.checked > 0 ? `, ${plural(digests.checked, 'signed digest')}` : '';
    return {
      type: 'success',
      title: 'Audit chain verified',
      description: `${plural(result.checkedEvents, 'event')} checked${signed}.`,
    };
  }
  if (result.brokenAt)
    return {
      type: 'error',
      title: 'Audit chain broken',
      description: `First broken link at event ${result.brokenAt.seq}.`,
    };
  const broken = digests?.brokenAt;
  return {
    type: 'error',
    title: 'Audit chain broken',
    description: broken
      ? `Signed digest up to event ${broken.toSeq}: ${DIGEST_REASON_TEXT[broken.reason]}.`
      : 'The chain could not be verified.',
  };
}

const CHAIN_REASON_TEXT: Record<string, string> = {
  HASH_MISMATCH: 'the event was changed',
  LINK_MISMATCH: 'the event does not follow the one before (changed or inserted)',
  MISSING_EVENT: 'an event is missing',
  HEAD_MISMATCH: 'events are missing from the end',
};

/**
 * The toast of a full verification job once it has ended: intact, or the first broken item's place, read from its
 * result's `ref` (`event:<seq>:<reason>` or `digest:<toSeq>:<reason>`, docs/jobs.md).
 */
export function fullVerificationSummary(
  job: Job,
  results: readonly JobResult[],
): { type: 'success' | 'error'; title: string; description: string } {
  if (job.status === 'FAILED')
    return { type: 'error', title: 'Full verification stopped', description: 'Start it again to resume.' };
  const broken = results.find((r) => r.outcome === 'FAILED');
  if (!broken) {
    const events = results
      .map((r) => /^events:(\d+)$/.exec(r.ref ?? '')?.[1])
      .reduce((sum, n) => sum + Number(n ?? 0), 0);
    const digests = Number(/^digests:(\d+)$/.exec(results[0]?.ref ?? '')?.[1] ?? 0);
    return {
      type: 'success',
      title: 'Audit chain verified in full',
      description: `${plural(events, 'event')} checked, ${plural(digests, 'signed digest')}.`,
    };
  }
  const [what, seq, reason = ''] = (broken.ref ?? '').split(':');
  const why =
    what === 'digest'
      ? `Signed digest up to event ${seq}: ${DIGEST_REASON_TEXT[reason as DigestReason] ?? reason}.`
      : `At event ${seq}: ${CHAIN_REASON_TEXT[reason] ?? reason}.`;
  return { type: 'error', title: 'Audit chain broken', description: why };
}
