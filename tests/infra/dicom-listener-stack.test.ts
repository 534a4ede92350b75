import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { loadStageConfig } from '#infra/config.ts';
import { DICOM_LISTENER_PORT, DICOM_SPOOL_DIR, DicomListenerStack } from '#infra/stacks/dicom-listener-stack.ts';

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

  it('sends a PROXY v2 header to the tasks, which read the node address from it, and gives them a spool volume', () => {
    const template = Template.fromStack(synth('dev').stack);
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Protocol: 'TCP',
      TargetType: 'ip',
      TargetGroupAttributes: Match.arrayWith([
        { Key: 'proxy_protocol_v2.enabled', Value: 'true' },
        { Key: 'preserve_client_ip.enabled', Value: 'false' },
      ]),
    });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      ContainerDefinitions: [
        Match.objectLike({
          ReadonlyRootFilesystem: true,
          Environment: Match.arrayWith([
            { Name: 'DICOM_PROXY_PROTOCOL', Value: '1' },
            { Name: 'DICOM_SPOOL_DIR', Value: DICOM_SPOOL_DIR },
          ]),
          MountPoints: [{ ContainerPath: DICOM_SPOOL_DIR, SourceVolume: 'spool', ReadOnly: false }],
        }),
      ],
      Volumes: [{ Name: 'spool' }],
    });
  });
});
