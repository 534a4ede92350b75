import type { VerifyAuditResponse } from '#shared/schemas/api/audit.ts';

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
