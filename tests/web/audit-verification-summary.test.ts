import { describe, expect, it } from 'vitest';
import { verificationSummary } from '#web/features/compliance/utils/verification.ts';

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
