import { describe, expect, it } from 'vitest';
import type { Job, JobResult } from '#shared/schemas/api/jobs.ts';
import { fullVerificationSummary, verificationSummary } from '#web/features/compliance/utils/verification.ts';

const at = '2026-11-27T20:00:00.000Z';

describe('the verification toast (docs/domain.md#verification)', () => {
  it('counts the events and signed digests of an intact trail', () => {
    // Act
    const summary = verificationSummary({
      verified: true,
      checkedEvents: 12,
      digests: { verified: true, checked: 3, lastDigestSeq: 10 },
      at,
    });

    // Assert
    expect(summary).toEqual({
      type: 'success',
      title: 'Audit chain verified',
      description: '12 events checked, 3 signed digests.',
    });
  });

  it("names the chain's first broken link, else the signed digest that failed and why", () => {
    // Act
    const link = verificationSummary({
      verified: false,
      checkedEvents: 3,
      brokenAt: { seq: 4, reason: 'HASH_MISMATCH' },
      at,
    });
    const digest = verificationSummary({
      verified: false,
      checkedEvents: 5,
      digests: { verified: false, checked: 1, lastDigestSeq: 5, brokenAt: { toSeq: 5, reason: 'HEAD_HASH_MISMATCH' } },
      at,
    });

    // Assert
    expect(link.description).toBe('First broken link at event 4.');
    expect(digest).toEqual({
      type: 'error',
      title: 'Audit chain broken',
      description: 'Signed digest up to event 5: an event it covers was changed.',
    });
  });
});

describe('the full verification toast (docs/jobs.md)', () => {
  const job: Job = {
    id: 'job-1',
    kind: 'AUDIT_VERIFICATION',
    hospitalId: 'h1',
    status: 'SUCCEEDED',
    total: 3,
    processed: 3,
    succeeded: 3,
    failed: 0,
    createdAt: at,
    updatedAt: at,
    finishedAt: at,
    error: null,
  };
  const result = (seq: number, subject: string, ref: string, outcome: JobResult['outcome'] = 'SUCCEEDED') => ({
    seq,
    subject,
    outcome,
    code: outcome === 'FAILED' ? 'AUDIT_CHAIN_BROKEN' : null,
    reason: null,
    ref,
  });

  it('sums the events of every range and counts the signed digests', () => {
    // Act
    const summary = fullVerificationSummary(job, [
      result(1, 'signed digests', 'digests:2'),
      result(2, 'events 1-1000', 'events:1000'),
      result(3, 'events 1001-1004', 'events:4'),
    ]);

    // Assert
    expect(summary).toEqual({
      type: 'success',
      title: 'Audit chain verified in full',
      description: '1004 events checked, 2 signed digests.',
    });
  });

  it('names the first broken item: an event with its reason, or a digest', () => {
    // Act
    const event = fullVerificationSummary({ ...job, failed: 1 }, [
      result(1, 'signed digests', 'digests:0'),
      result(2, 'events 1-1000', 'event:12:HASH_MISMATCH', 'FAILED'),
    ]);
    const digest = fullVerificationSummary({ ...job, failed: 1 }, [
      result(1, 'signed digests', 'digest:30:DIGEST_LINK_BROKEN', 'FAILED'),
    ]);

    // Assert
    expect(event).toMatchObject({ type: 'error', description: 'At event 12: the event was changed.' });
    expect(digest.description).toBe(
      'Signed digest up to event 30: it does not name the digest before it (a digest was removed).',
    );
  });
});
