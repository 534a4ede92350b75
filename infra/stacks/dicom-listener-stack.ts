import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  FlowLogDestination,
  FlowLogTrafficType,
  GatewayVpcEndpointAwsService,
  Peer,
  Port,
  SecurityGroup,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import {
  Cluster,
  ContainerImage,
  ContainerInsights,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
} from 'aws-cdk-lib/aws-ecs';
import { NetworkLoadBalancer, Protocol } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { ENV } from '#shared/definitions/env.ts';
import type { StageConfig } from '#infra/config.ts';
import { grantStatements, type Grants } from '#infra/function-declarations.ts';
import { bucketArn, functionArn, resourceNames, tableArn } from '#infra/resource-names.ts';

/** The DICOM port of the listener (the registered DICOM port is 104; 11112 is the IANA "dicom" port without root). */
export const DICOM_LISTENER_PORT = 11112;
/** Where the listener's task writes the instances it is receiving (a volume of its ephemeral storage). */
export const DICOM_SPOOL_DIR = '/spool';

/**
 * What the listener may touch: the table (integrations, intake items, datasets, audit), the uploads bucket to write
 * raw instances, and the pseudonymisation key (patient alias, de-identified UIDs). Never the studies or assets
 * buckets, never the pipeline: the intake sweep starts it.
 */
export const DICOM_LISTENER_GRANTS: Grants = {
  table: 'readWrite',
  buckets: { uploads: ['write'] },
  pseudonymSecret: true,
};

export type DicomListenerStackProps = StackProps & {
  config: StageConfig;
  dataKey: IKey;
  pseudonymSecret: ISecret;
  /** Networks the hospitals' DICOM nodes send from: the load balancer's security group admits only these. */
  sourceCidrs?: readonly string[];
};

/**
 * The C-STORE SCP in the cloud (docs/dicom-intake.md#dicom-nodes): one Fargate service in private subnets behind a
 * Network Load Balancer on the DICOM port. The nodes' AE titles and addresses are checked by the listener itself; the
 * load balancer's security group is the outer gate (the configured source networks only).
 */
export class DicomListenerStack extends Stack {
  readonly loadBalancer: NetworkLoadBalancer;

  constructor(scope: Construct, id: string, props: DicomListenerStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    const flowLogs = new LogGroup(this, 'FlowLogs', {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 1,
      restrictDefaultSecurityGroup: true,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, mapPublicIpOnLaunch: false },
        { name: 'private', subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      ],
      flowLogs: {
        all: { destination: FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: FlowLogTrafficType.ALL },
      },
      // The table and the uploads bucket are reached without leaving AWS's network.
      gatewayEndpoints: {
        dynamodb: { service: GatewayVpcEndpointAwsService.DYNAMODB },
        s3: { service: GatewayVpcEndpointAwsService.S3 },
      },
    });

    const cluster = new Cluster(this, 'Cluster', {
      vpc,
      clusterName: `${config.prefix}-dicom`,
      containerInsightsV2: ContainerInsights.ENABLED,
    });
    const logs = new LogGroup(this, 'ListenerLogs', {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    const task = new FargateTaskDefinition(this, 'Task', { cpu: 512, memoryLimitMiB: 1024 });
    // The instances being received are written here, one temp file each (the root filesystem is read-only): a volume
    // of the task's ephemeral storage (docs/dicom-intake.md#limits).
    task.addVolume({ name: 'spool' });
    const container = task.addContainer('Listener', {
      image: ContainerImage.fromAsset(fileURLToPath(new URL('../../', import.meta.url)), {
        file: 'infra/docker/dicom-listener.Dockerfile',
        exclude: ['node_modules', '.data', 'web', 'tests', 'bench', 'cdk.out', '.git'],
      }),
      logging: LogDrivers.awsLogs({ logGroup: logs, streamPrefix: 'listener' }),
      portMappings: [{ containerPort: DICOM_LISTENER_PORT }],
      readonlyRootFilesystem: true,
      environment: {
        [ENV.STAGE]: config.stage,
        [ENV.TABLE_NAME]: names.table,
        [ENV.UPLOADS_BUCKET]: names.buckets.uploads,
        [ENV.PSEUDONYM_SECRET_ARN]: props.pseudonymSecret.secretArn,
        [ENV.DICOM_PORT]: String(DICOM_LISTENER_PORT),
        // The target group sends a PROXY v2 header first (below): the listener reads the node's address from it.
        [ENV.DICOM_PROXY_PROTOCOL]: '1',
        [ENV.DICOM_SPOOL_DIR]: DICOM_SPOOL_DIR,
        // Audit events go through the one appender (docs/deployment.md#audit-trail).
        [ENV.AUDIT_APPENDER_FUNCTION]: names.auditAppender,
        // Its log lines' service (docs/observability.md); Powertools' Tracer stays off outside Lambda.
        POWERTOOLS_SERVICE_NAME: 'dicom-listener',
        AWS_REGION: this.region,
      },
    });
    container.addMountPoints({ sourceVolume: 'spool', containerPath: DICOM_SPOOL_DIR, readOnly: false });
    for (const statement of grantStatements(DICOM_LISTENER_GRANTS, {
      table: tableArn(names.table),
      buckets: {
        uploads: bucketArn(names.buckets.uploads),
        studies: bucketArn(names.buckets.studies),
        assets: bucketArn(names.buckets.assets),
      },
      stateMachine: '',
      pseudonymSecret: props.pseudonymSecret.secretArn,
      userPool: '',
      dataKey: props.dataKey.keyArn,
      mailConfigurationSet: '',
      auditAppender: functionArn(names.auditAppender),
      jobWorker: functionArn(names.jobWorker),
      auditDigestBucket: '',
      auditDigestKey: '',
    })) {
      const { effect, ...rest } = statement;
      task.taskRole.addToPrincipalPolicy(
        new PolicyStatement({ ...rest, effect: effect === 'Deny' ? Effect.DENY : Effect.ALLOW }),
      );
    }
    const objects = `${bucketArn(names.buckets.uploads)}/*`;
    Validations.of(task.taskRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(this.resolve(objects))}]`,
      reason:
        'Raw instances are keyed by hospital and dataset ids known only at run time; the bucket is fixed and the only action is PutObject.',
    });

    const serviceGroup = new SecurityGroup(this, 'ServiceSecurityGroup', {
      vpc,
      description: 'DICOM listener tasks: the DICOM port from the load balancer only',
      allowAllOutbound: true,
    });
    const balancerGroup = new SecurityGroup(this, 'BalancerSecurityGroup', {
      vpc,
      description: 'DICOM listener load balancer: the DICOM port from the hospitals networks only',
      allowAllOutbound: false,
    });
    for (const cidr of props.sourceCidrs ?? [])
      balancerGroup.addIngressRule(Peer.ipv4(cidr), Port.tcp(DICOM_LISTENER_PORT), 'A hospital network');
    balancerGroup.addEgressRule(serviceGroup, Port.tcp(DICOM_LISTENER_PORT), 'To the listener tasks');
    serviceGroup.addIngressRule(balancerGroup, Port.tcp(DICOM_LISTENER_PORT), 'From the load balancer');

    const service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: task,
      desiredCount: 1,
      assignPublicIp: false,
      securityGroups: [serviceGroup],
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      circuitBreaker: { rollback: true },
    });

    this.loadBalancer = new NetworkLoadBalancer(this, 'LoadBalancer', {
      vpc,
      internetFacing: true,
      crossZoneEnabled: true,
      deletionProtection: config.isProduction,
      securityGroups: [balancerGroup],
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
    });
    const listener = this.loadBalancer.addListener('Dicom', { port: DICOM_LISTENER_PORT, protocol: Protocol.TCP });
    // Behind a Network Load Balancer with TCP listeners and IP targets (Fargate), client IP preservation is off by
    // default, so the tasks see the balancer's address as the peer. The target group sends a PROXY protocol v2 header
    // before the client's bytes instead (Elastic Load Balancing, "Target groups for your Network Load Balancers":
    // proxy protocol), and the listener checks the node's address from it (docs/dicom-intake.md#behind-the-load-balancer).
    // Client IP preservation is left off explicitly: with both, the task would need the hospitals' networks in its
    // security group, not only the balancer's.
    listener.addTargets('Listener', {
      port: DICOM_LISTENER_PORT,
      protocol: Protocol.TCP,
      targets: [service],
      proxyProtocolV2: true,
      preserveClientIp: false,
      healthCheck: { protocol: Protocol.TCP, interval: Duration.seconds(30) },
      deregistrationDelay: Duration.seconds(30),
    });

    Validations.of(task).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason:
        'The environment holds resource names and the secret ARN only (the key itself is read from Secrets Manager at run time), never a secret value.',
    });
    Validations.of(this.loadBalancer).acknowledge(
      {
        id: 'AwsSolutions-ELB2',
        reason:
          'A Network Load Balancer writes access logs for TLS listeners only; this TCP listener has none to write (the listener audits each association).',
      },
      {
        id: 'HIPAA.Security-ELBLoggingEnabled',
        reason:
          'A Network Load Balancer writes access logs for TLS listeners only; this TCP listener has none to write (the listener audits each association).',
      },
      {
        id: 'HIPAA.Security-ELBv2ACMCertificateRequired',
        reason:
          'DICOM upper layer over TCP (PS3.8) has no certificate to present; DICOM TLS is not offered yet, so nodes reach it over a private link or VPN (docs/dicom-intake.md#known-gaps).',
      },
      {
        id: 'HIPAA.Security-ELBTlsHttpsListenersOnly',
        reason:
          'DICOM upper layer over TCP (PS3.8); DICOM TLS is not offered yet, so nodes reach it over a private link or VPN and their AE title and address are checked (docs/dicom-intake.md#known-gaps).',
      },
    );
    if (!config.isProduction)
      Validations.of(this.loadBalancer).acknowledge({
        id: 'HIPAA.Security-ELBDeletionProtectionEnabled',
        reason:
          'Development and staging stacks are torn down and rebuilt; production turns deletion protection on (config.isProduction).',
      });
    const inline =
      'Each role (task, execution, flow logs) has one policy listing exactly what it may do; a managed policy would invite sharing grants.';
    for (const role of [task.taskRole, task.obtainExecutionRole()])
      Validations.of(role).acknowledge({ id: 'HIPAA.Security-IAMNoInlinePolicy', reason: inline });
    Validations.of(vpc).acknowledge({ id: 'HIPAA.Security-IAMNoInlinePolicy', reason: inline });
    Validations.of(task.obtainExecutionRole()).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'ecr:GetAuthorizationToken, which pulling the image needs, supports no resource-level permissions; the repository actions name the repository.',
    });
    Validations.of(vpc).acknowledge({
      id: 'HIPAA.Security-VPCNoUnrestrictedRouteToIGW',
      reason:
        'The public subnets hold the internet-facing load balancer and the NAT gateway only; the tasks run in private subnets.',
    });
  }
}
