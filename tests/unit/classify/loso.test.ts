import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';
import { parseLabelledCsv, uniqueProtocols } from '#bench/classify/evaluation.ts';
import { fitClassifier } from '#bench/classify/fit.ts';
import { leaveOneSourceOut, type LosoResult } from '#bench/classify/loso.ts';
import { DEFAULT_MODEL } from '#shared/dicom/classify/model.ts';

/**
 * Leave one source out, by unique protocol, over both labelled dev sets (definitions in
 * bench/classify/evaluation.ts and loso.ts): the figures bench/classify.ts prints, asserted so they cannot
 * regress silently. Pure computation over the CSVs.
 */
const LABELS = sharedDataPath('labels');
const protocols = uniqueProtocols(
  ['dev-sidecars.csv', 'dev-sidecars-openneuro.csv'].flatMap((file) =>
    parseLabelledCsv(readFileSync(resolve(LABELS, file), 'utf8')),
  ),
);

function describeResult(result: LosoResult): string {
  const { overall, flag } = result;
  return `class ${overall.class.correct}/${overall.class.total}, suffix ${overall.suffix.correct}/${overall.suffix.total}, keyword class ${overall.keywordClass.correct}, flagged ${flag.flagged}/${flag.total} catching ${(flag.errorsCaught * 100).toFixed(1)}% of ${flag.errors} errors`;
}

describe('leave one source out on the labelled dev sidecars', () => {
  const withDescriptions = leaveOneSourceOut(protocols);
  const withoutDescriptions = leaveOneSourceOut(protocols, { ignoreDescriptions: true });

  it('holds out every source of both dev sets, counting protocols once', () => {
    // Assess
    expect(withDescriptions.perSource.size).toBeGreaterThanOrEqual(50);
    expect(withDescriptions.overall.class.total).toBeGreaterThan(3300);
    expect(withoutDescriptions.overall.class.total).toBe(withDescriptions.overall.class.total);
  });

  it('classifies ≥ 98% of protocols right with descriptions, with the BIDS suffix right for ≥ 97%', () => {
    // Assess
    const report = describeResult(withDescriptions);
    expect(withDescriptions.overall.class.accuracy, report).toBeGreaterThanOrEqual(0.98);
    expect(withDescriptions.overall.suffix.accuracy, report).toBeGreaterThanOrEqual(0.97);
  });

  it('classifies ≥ 94% of protocols right from the physics alone', () => {
    // Assess: 94.5% when this floor was set (the Ernst-angle reading of spoiled gradient echoes, time-of-flight timing).
    expect(withoutDescriptions.overall.class.accuracy, describeResult(withoutDescriptions)).toBeGreaterThanOrEqual(
      0.94,
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

  it('flags at most 15% of protocols with descriptions, catching at least 80% of the wrong answers', () => {
    // Assess: the budget and threshold are chosen inside each fold on the training sources (fit.ts chooseBudget), the
    // study review's flags counted in it. With descriptions 13.3% flagged, catching 92.0% of the wrong answers, when
    // these floors were set.
    const report = describeResult(withDescriptions);
    expect(withDescriptions.flag.flaggedShare, report).toBeLessThanOrEqual(0.15);
    expect(withDescriptions.flag.errorsCaught, report).toBeGreaterThanOrEqual(0.8);
    expect(withDescriptions.flag.errorsCaughtBesidesUnstatedContrast, report).toBeGreaterThanOrEqual(0.8);
    expect(withDescriptions.flag.unstatedContrastCaught, report).toBeGreaterThanOrEqual(0.8 * 28);
  });

  it('from the physics alone, catches at least 80% of the wrong answers, flagging more than 15% (docs/classification.md#not-reached)', () => {
    // Assess: 17.5% flagged, catching 82.0%, when these bounds were set: the post-contrast T1s of ds007045 state no
    // contrast without their descriptions, so the study review asks about most of its T1 pairs, a share no training
    // fold that holds it out has seen.
    const report = describeResult(withoutDescriptions);
    expect(withoutDescriptions.flag.flaggedShare, report).toBeLessThanOrEqual(0.18);
    expect(withoutDescriptions.flag.errorsCaught, report).toBeGreaterThanOrEqual(0.8);
  });

  it('ships the model that fitting on every labelled protocol gives', () => {
    // Act
    const fitted = fitClassifier(protocols);
    // Assess
    expect(DEFAULT_MODEL).toEqual(fitted);
  });
});
