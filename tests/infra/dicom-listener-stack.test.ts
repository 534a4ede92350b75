import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { loadStageConfig } from '#infra/config.ts';
import { DICOM_LISTENER_PORT, DicomListenerStack } from '#infra/stacks/dicom-listener-stack.ts';

function nagErrors(scope: IConstruct): string[] {
  return [new AwsSolutionsChecks(), new HIPAASecurityChecks()].flatMap((pack) =>
    pack
      .validateScope(scope)
      .violations.filter((violation) => violation.severity === 'error')
      .flatMap((violation) => violation.violatingResources.map((r) => `${violation.ruleName} at ${r.constructPath}`)),
  );
}

function synth(stage: string) {
  const app = new App({ context: { stage } });
  const config = loadStageConfig(app.node);
  const storage = new Stack(app, 'Storage');
  const dataKey = new Key(storage, 'DataKey', { enableKeyRotation: true });
  const pseudonymSecret = new Secret(storage, 'PseudonymSecret', { encryptionKey: dataKey });
  const stack = new DicomListenerStack(app, 'Dicom', {
    config,
    dataKey,
    pseudonymSecret,
    sourceCidrs: ['10.20.0.0/16'],
  });
  return { app, stack };
}

describe('DICOM listener stack (Fargate behind a Network Load Balancer)', () => {
  it.each(['dev', 'prod'])('synthesizes with zero unacknowledged cdk-nag errors (%s)', (stage) => {
    const { stack } = synth(stage);
    expect(nagErrors(stack)).toEqual([]);
  });

  it('listens on the DICOM port, admits only the configured networks, and runs the tasks without public addresses', () => {
    const template = Template.fromStack(synth('dev').stack);
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Port: DICOM_LISTENER_PORT,
      Protocol: 'TCP',
    });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: [{ CidrIp: '10.20.0.0/16', FromPort: DICOM_LISTENER_PORT, ToPort: DICOM_LISTENER_PORT }],
    });
    template.hasResourceProperties('AWS::ECS::Service', {
      NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'DISABLED' } },
    });
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('s3:PutObject');
    expect(policies).not.toContain('s3:GetObject');
    expect(policies).not.toContain('states:StartExecution');
  });
});
