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
    const [, rule] = rules.find(([id]) => id.startsWith('ApplyRetentionSchedule'))!;
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    const invokers = resourcesOf(pipeline, 'AWS::Lambda::Permission').filter(
      ([, p]) => p.Properties.Principal === 'events.amazonaws.com',
    );
    expect(invokers.map(([, p]) => p.Properties.FunctionName)).toContainEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
  });

  it('invokes the monthly-report function on the first of each month at 06:00 UTC (docs/domain.md#monthly-report)', () => {
    const [fnId, fn] = resourcesOf(pipeline, 'AWS::Lambda::Function').find(([id]) =>
      id.startsWith('SendMonthlyReportsFunction'),
    )!;
    const [, rule] = resourcesOf(pipeline, 'AWS::Events::Rule').find(([id]) =>
      id.startsWith('SendMonthlyReportsSchedule'),
    )!;
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 6 1 * ? *)',
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'MAIL_FROM']),
    );
    expect(scheduledJobDeclaration(SCHEDULED_JOBS.find((j) => j.id === 'SendMonthlyReports')!)).toMatchObject({
      kind: 'job',
      scansTable: true,
      sendsMail: true,
    });
  });

  it('invokes the daily notifications function each day at 07:00 UTC (docs/domain.md#notifications)', () => {
    // Arrange
    const [fnId, fn] = resourcesOf(pipeline, 'AWS::Lambda::Function').find(([id]) =>
      id.startsWith('SendDailyNotificationsFunction'),
    )!;

    // Act
    const [, rule] = resourcesOf(pipeline, 'AWS::Events::Rule').find(([id]) =>
      id.startsWith('SendDailyNotificationsSchedule'),
    )!;

    // Assert
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 7 * * ? *)',
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'MAIL_FROM', 'MAIL_CONFIGURATION_SET']),
    );
  });

  it('lets only the scheduled jobs scan the table; retention starts jobs and deletes nothing itself', () => {
    const statements = resourcesOf(pipeline, 'AWS::IAM::Policy').flatMap(([, p]) =>
      (p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).map((s) => ({
        roles: JSON.stringify(p.Properties.Roles),
        actions: [s.Action].flat(),
      })),
    );
    const scanners = statements.filter((s) => s.actions.includes('dynamodb:Scan'));
    expect(scanners.length).toBeGreaterThan(0);
    // The scheduled jobs that walk every hospital scan; no API function does.
    expect(
      scanners.every((s) => /ApplyRetention|SendMonthlyReports|SendDailyNotifications|WriteAuditDigests/.test(s.roles)),
    ).toBe(true);
    expect(scheduledJobDeclaration(SCHEDULED_JOBS[0]!)).toMatchObject({
      id: 'ApplyRetentionFunction',
      kind: 'job',
      scansTable: true,
      table: 'readWrite',
      startsJobs: true,
    });
    // The job worker deletes (docs/jobs.md#grants): the schedule's role has no S3 action at all.
    const retention = statements.filter((s) => /ApplyRetention/.test(s.roles));
    expect(retention.length).toBeGreaterThan(0);
    expect(retention.flatMap((s) => s.actions).filter((a) => a.startsWith('s3:'))).toEqual([]);
  });
});
