import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  evaluateProtocols,
  formatConfusion,
  parseLabelledCsv,
  uniqueProtocols,
  type Evaluation,
  type Protocol,
} from '#bench/classify/evaluation.ts';
import { classifySeries, type ClassifiedType } from '#shared/dicom/classify/index.ts';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';

/**
 * Accuracy on labels/dev-sidecars.csv, counted by unique protocol (definitions in bench/classify/evaluation.ts):
 * per-class accuracy = recall = share of the evaluable protocols labelled C that are classified C.
 * Thresholds: ≥97% with descriptions and ≥90% without, for T1, T2, FLAIR, DTI, DWI and OTHER.
 *
 * Known label disagreements are listed here, in the open, and scored both ways: the protocols whose label
 * contradicts their recorded physics. The threshold applies with them set aside; the figure with them included is
 * asserted against a lower bar and printed. Each one must still be classified as the physics says, so the list cannot
 * quietly absorb new errors.
 */
const MEASURED: ClassifiedType[] = ['T1', 'T2', 'FLAIR', 'DTI', 'DWI', 'OTHER'];

const LABEL_DISAGREEMENTS: { path: string; label: ClassifiedType; physics: ClassifiedType; why: string }[] = [
  {
    path: 'mri_chunk/',
    label: 'T1',
    physics: 'T2',
    why: 'labelled T1w, but a 3D turbo spin echo (Siemens SPACE "*spcR3d1") with TE 124 ms and refocusing flip 110°: T2-weighted by its physics and nothing in its description says T1',
  },
];

const isDisagreement = (protocol: Protocol) =>
  LABEL_DISAGREEMENTS.some((item) => protocol.examplePath.startsWith(item.path) && protocol.label === item.label);

function loadProtocols(): Protocol[] {
  return uniqueProtocols(parseLabelledCsv(readFileSync(sharedDataPath('labels/dev-sidecars.csv'), 'utf8')));
}

function summary(name: string, evaluation: Evaluation): string {
  return (
    `${name}: ${evaluation.evaluable} evaluable of ${evaluation.protocols} protocols\n${formatConfusion(evaluation)}\n` +
    evaluation.errors
      .map(
        ({ protocol, result }) =>
          `  ${protocol.label} → ${result.classifiedType} (${result.confidence}) ${protocol.examplePath}`,
      )
      .join('\n')
  );
}

describe('classification accuracy on the dev sidecars, by unique protocol', () => {
  const protocols = loadProtocols();
  const scored = protocols.filter((protocol) => !isDisagreement(protocol));

  it('counts protocols, not rows, and reports what it cannot evaluate', () => {
    // Assess
    expect(protocols.length).toBeGreaterThan(200);
    expect(protocols.reduce((sum, protocol) => sum + protocol.rows, 0)).toBe(7170);
    const excluded = protocols.filter((protocol) => !protocol.evaluable);
    // Sidecars with fewer than two acquisition parameters (e.g. only EchoTime, or nothing): reported, not hidden.
    expect(excluded.length).toBeLessThanOrEqual(30);
  });

  it('classifies the documented label disagreements as their physics says', () => {
    for (const item of LABEL_DISAGREEMENTS) {
      const matching = protocols.filter(
        (protocol) => protocol.examplePath.startsWith(item.path) && protocol.label === item.label,
      );
      expect(matching.length, item.path).toBeGreaterThan(0);
      for (const protocol of matching)
        expect(classifySeries(protocol.acquisition).classifiedType, item.why).toBe(item.physics);
    }
  });

  it.each([
    { descriptions: true, threshold: 0.97 },
    { descriptions: false, threshold: 0.9 },
  ])('per-class accuracy ≥ $threshold with descriptions=$descriptions', ({ descriptions, threshold }) => {
    // Act
    const evaluation = evaluateProtocols(scored, { ignoreDescriptions: !descriptions });
    const withDisagreements = evaluateProtocols(protocols, { ignoreDescriptions: !descriptions });
    // The confusion matrices go into the failure messages; a passing run prints vitest's report only.
    const report = summary(`descriptions=${descriptions}`, evaluation);
    const reportWithDisagreements = summary(
      `descriptions=${descriptions}, label disagreements included`,
      withDisagreements,
    );
    // Assess
    for (const type of MEASURED) {
      const score = evaluation.perClass[type];
      if (type === 'DWI') {
        // The dev set labels no DWI (every diffusion series there has ≥32 directions); DWI is checked on the
        // Siemens mosaic series and the unit rules instead. Should DWI labels appear, the threshold applies.
        if (score.total === 0) continue;
      }
      expect(score.total, `${type} has labelled protocols`).toBeGreaterThan(0);
      expect(score.accuracy, `${type} recall\n${report}`).toBeGreaterThanOrEqual(threshold);
      expect(
        withDisagreements.perClass[type].accuracy,
        `${type} recall with disagreements\n${reportWithDisagreements}`,
      ).toBeGreaterThanOrEqual(0.9);
    }
    expect(evaluation.overall.accuracy, report).toBeGreaterThanOrEqual(threshold);
  });
});
