import { App, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { addComplianceChecks } from '#infra/imaging-app.ts';
import { synthImagingApp } from './synth.ts';

/** Unacknowledged cdk-nag errors, one line each (rule and construct path), so a failure says what to fix. */
function nagErrors(scope: IConstruct): string[] {
  return [new AwsSolutionsChecks(), new HIPAASecurityChecks()].flatMap((pack) =>
    pack
      .validateScope(scope)
      .violations.filter((violation) => violation.severity === 'error')
      .flatMap((violation) => violation.violatingResources.map((r) => `${violation.ruleName} at ${r.constructPath}`)),
  );
}

function acknowledgements(scope: IConstruct): { path: string; id: string; reason: string }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, unknown>).map(([id, value]) => ({
          path: construct.node.path,
          id,
          reason: typeof value === 'string' ? value : JSON.stringify(value),
        })),
      ),
  );
}

describe('cdk-nag (AWS Solutions and HIPAA Security)', () => {
  it.each(['dev', 'prod'])(
    'finds zero unacknowledged errors in the %s stage, and synth with the packs as plugins succeeds',
    (stage) => {
      // Prepare + Act: the packs run as validation plugins during synth, as in `cdk synth`; synth throws on an error.
      const { app } = synthImagingApp({ stage }, { nag: true });

      // Assess
      expect(nagErrors(app)).toEqual([]);
      const acknowledged = acknowledgements(app);
      expect(acknowledged.length).toBeGreaterThan(10);
      for (const { path, id, reason } of acknowledged) {
        expect(reason.length, `${id} at ${path} needs a reason`).toBeGreaterThan(30);
      }
    },
  );

  it('fails synth on an unacknowledged error, so the zero above is enforced, not reported', () => {
    // Prepare
    const app = new App();
    new Bucket(new Stack(app, 'Unchecked'), 'OpenBucket');
    addComplianceChecks(app);

    // Act + Assess
    expect(() => app.synth()).toThrow();
  });
});
