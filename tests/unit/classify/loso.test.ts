import { describe, expect, it } from 'vitest';
import { SHARED_DATA, sharedDataPath } from '#tests/helpers/shared-data.ts';
import { readDevProtocols, tuningProtocols } from '#bench/classify/dev-sets.ts';
import { fitClassifier } from '#bench/classify/fit.ts';
import { leaveOneSourceOut, type LosoResult } from '#bench/classify/loso.ts';
import { DEFAULT_MODEL } from '#shared/dicom/classify/model.ts';

/**
 * Leave one source out, by unique protocol, over the sources of the three labelled dev sets outside the lockbox
 * (definitions in bench/classify/evaluation.ts, loso.ts and dev-sets.ts): the figures bench/classify.ts prints,
 * asserted so they cannot regress silently. The locked sources are not read here (docs/classification.md#the-lockbox).
 * Pure computation over the CSVs.
 */
sharedDataPath('labels');
const everyProtocol = readDevProtocols(SHARED_DATA);
const protocols = tuningProtocols(everyProtocol);

function describeResult(result: LosoResult): string {
  const { overall, flag } = result;
  return `class ${overall.class.correct}/${overall.class.total}, suffix ${overall.suffix.correct}/${overall.suffix.total}, keyword class ${overall.keywordClass.correct}, flagged ${flag.flagged}/${flag.total} catching ${(flag.errorsCaught * 100).toFixed(1)}% of ${flag.errors} errors`;
}

describe('leave one source out on the labelled dev sidecars', () => {
  const withDescriptions = leaveOneSourceOut(protocols);
  const withoutDescriptions = leaveOneSourceOut(protocols, { ignoreDescriptions: true });

  it('holds out every source outside the lockbox, counting protocols once', () => {
    // Assess
    expect(withDescriptions.perSource.size).toBe(56);
    expect(withDescriptions.overall.class.total).toBeGreaterThan(3900);
    expect(withoutDescriptions.overall.class.total).toBe(withDescriptions.overall.class.total);
  });

  it('classifies ≥ 99% of protocols right with descriptions, with the BIDS suffix right for ≥ 97%', () => {
    // Assess
    const report = describeResult(withDescriptions);
    expect(withDescriptions.overall.class.accuracy, report).toBeGreaterThanOrEqual(0.99);
    expect(withDescriptions.overall.suffix.accuracy, report).toBeGreaterThanOrEqual(0.97);
  });

  it('classifies ≥ 85% of protocols right from the physics alone', () => {
    // Assess: 85.2% when this floor was set on the sources outside the lockbox; ds004712's SWI, named only by its
    // descriptions, reads as multi-echo mapping or proton-density gradient echoes (docs/classification.md#not-reached).
    expect(withoutDescriptions.overall.class.accuracy, describeResult(withoutDescriptions)).toBeGreaterThanOrEqual(
      0.85,
    );
  });

  it('is ahead of the keyword baseline overall, with descriptions and without', () => {
    // Assess
    for (const result of [withDescriptions, withoutDescriptions]) {
      expect(result.overall.class.accuracy).toBeGreaterThan(result.overall.keywordClass.accuracy);
      expect(result.overall.suffix.accuracy).toBeGreaterThan(result.overall.keywordSuffix.accuracy);
    }
  });

  it('is behind the keyword baseline on no source, with descriptions and from the physics alone', () => {
    // Assess: a source is behind when its class or suffix accuracy is below the keyword baseline's on it. ds000117's
    // multi-echo FLASH files read as one multi-echo series (MEGRE) since its echoes are put back together.
    for (const result of [withDescriptions, withoutDescriptions]) {
      const behind = [...result.perSource]
        .filter(
          ([, s]) =>
            s.class.accuracy < s.keywordClass.accuracy ||
            (s.suffix.total > 0 && s.suffix.accuracy < s.keywordSuffix.accuracy),
        )
        .map(([source]) => source);
      expect(behind).toEqual([]);
    }
    expect(withDescriptions.perSource.get('ds000117')?.class.accuracy).toBe(1);
    expect(withoutDescriptions.perSuffix.get('angio')?.accuracy).toBe(1);
  });

  it('with descriptions, flags at most 15% of protocols (the product limit), catching at least 80% of the wrong answers (the target)', () => {
    // Assess: 13.7% flagged, catching 81.8% of 33 (27), when these bounds were set; the six left uncaught are answers
    // the headers back (docs/classification.md#not-reached). ds004712's SWI, whose rules no other source has records
    // of, takes 44.5% of its 800 protocols.
    const report = describeResult(withDescriptions);
    expect(withDescriptions.flag.flaggedShare, report).toBeLessThanOrEqual(0.15);
    expect(withDescriptions.flag.errorsCaught, report).toBeGreaterThanOrEqual(0.8);
  });

  it('from the physics alone, flags at most 25% of protocols, catching at least 36% of the wrong answers', () => {
    // Assess: 24.9% flagged, catching 36.9% (every post-contrast T1 that states no contrast among them), when these
    // bounds were set (docs/classification.md#not-reached).
    const report = describeResult(withoutDescriptions);
    expect(withoutDescriptions.flag.flaggedShare, report).toBeLessThanOrEqual(0.25);
    expect(withoutDescriptions.flag.errorsCaught, report).toBeGreaterThanOrEqual(0.36);
  });

  it('ships the model that fitting on every labelled protocol gives', () => {
    // Act
    const fitted = fitClassifier(everyProtocol);
    // Assess
    expect(DEFAULT_MODEL).toEqual(fitted);
  });
});
