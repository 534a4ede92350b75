import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthImagingApp } from './synth.ts';

type Resource = { Type: string; Properties: Record<string, any> };

let auth: Template;

beforeAll(() => {
  const built = synthImagingApp({ stage: 'prod' });
  auth = built.template(built.auth);
});

const resourcesOf = (type: string) => Object.entries(auth.findResources(type) as Record<string, Resource>);

describe('MFA in the prod user pool', () => {
  it('offers TOTP (no SMS) with MFA optional, so admins and leads can enrol', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
  });

  it("runs the pre-token-generation trigger that writes the mfa claim, which may read only this pool's users and move their role groups", () => {
    const [[, pool]] = resourcesOf('AWS::Cognito::UserPool') as [[string, Resource]];
    const functions = resourcesOf('AWS::Lambda::Function');
    const [triggerId, trigger] = functions.find(([id]) => id.startsWith('PreTokenGeneration'))!;
    expect(pool.Properties.LambdaConfig.PreTokenGeneration).toEqual({ 'Fn::GetAtt': [triggerId, 'Arn'] });
    expect(trigger.Properties.Environment.Variables.STAGE).toBe('prod');

    const [poolId] = resourcesOf('AWS::Cognito::UserPool')[0]!;
    const statements = resourcesOf('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes('PreTokenGenerationRole'))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as any[]);
    const cognito = statements.filter((s) => JSON.stringify(s.Action).includes('cognito-idp'));
    expect(cognito).toEqual([
      expect.objectContaining({
        Action: ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminRemoveUserFromGroup'],
        Resource: { 'Fn::GetAtt': [poolId, 'Arn'] },
      }),
    ]);
    // Cognito may invoke it; nothing else is granted.
    auth.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
    });
  });

  it('counts sign-in attempts and successes with one function on the pre- and post-authentication triggers', () => {
    const [[, pool]] = resourcesOf('AWS::Cognito::UserPool') as [[string, Resource]];
    const [triggerId] = resourcesOf('AWS::Lambda::Function').find(([id]) => id.startsWith('SignInEvents'))!;
    expect(pool.Properties.LambdaConfig.PreAuthentication).toEqual({ 'Fn::GetAtt': [triggerId, 'Arn'] });
    expect(pool.Properties.LambdaConfig.PostAuthentication).toEqual({ 'Fn::GetAtt': [triggerId, 'Arn'] });
  });

  it('lets the sign-in trigger send the failed sign-in alert by SES and SNS, with the site to link to (docs/domain.md#security-alerts)', () => {
    // Arrange
    const [, trigger] = resourcesOf('AWS::Lambda::Function').find(([id]) => id.startsWith('SignInEvents'))!;

    // Act
    const actions = resourcesOf('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes('SignInEventsRole'))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .flatMap((s) => [s.Action].flat());

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['ses:SendEmail', 'sns:Publish']));
    expect(Object.keys(trigger.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining(['MAIL_FROM', 'MAIL_CONFIGURATION_SET', 'SITE_ORIGIN']),
    );
  });
});
