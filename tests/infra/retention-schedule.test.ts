import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { SCHEDULED_JOBS, scheduledJobDeclaration } from '#infra/function-declarations.ts';
import { synthImagingApp } from './synth.ts';

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

describe('the data-retention schedule in the cloud (docs/pipeline.md#data-retention)', () => {
  let pipeline: Template;
  beforeAll(() => {
    const built = synthImagingApp({ stage: 'dev' });
    pipeline = built.template(built.pipeline);
  }, 120_000);

  it('invokes the retention function daily at 03:00 UTC through an EventBridge rule', () => {
    const [fnId] = resourcesOf(pipeline, 'AWS::Lambda::Function').find(([id]) =>
      id.startsWith('ApplyRetentionFunction'),
    )!;
    const rules = resourcesOf(pipeline, 'AWS::Events::Rule');
    expect(rules).toHaveLength(SCHEDULED_JOBS.length);
    expect(rules[0]![1].Properties).toMatchObject({
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    const [, permission] = resourcesOf(pipeline, 'AWS::Lambda::Permission').find(
      ([, p]) => p.Properties.Principal === 'events.amazonaws.com',
    )!;
    expect(permission.Properties.FunctionName).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
  });

  it('lets only the retention function scan the table, and delete in every bucket', () => {
    const statements = resourcesOf(pipeline, 'AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).map((s) => ({
        roles: JSON.stringify(p.Properties.Roles),
        actions: [s.Action].flat(),
      })),
    );
    const scanners = statements.filter((s) => s.actions.includes('dynamodb:Scan'));
    expect(scanners.length).toBeGreaterThan(0);
    expect(scanners.every((s) => s.roles.includes('ApplyRetention'))).toBe(true);
    expect(scheduledJobDeclaration(SCHEDULED_JOBS[0]!)).toMatchObject({
      kind: 'job',
      scansTable: true,
      table: 'readWrite',
    });
  });
});
