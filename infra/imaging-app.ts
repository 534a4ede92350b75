import { App, Tags, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { loadStageConfig, type StageConfig } from './config.ts';
import { ApiStack } from './stacks/api-stack.ts';
import { AuthStack } from './stacks/auth-stack.ts';
import { EdgeStack } from './stacks/edge-stack.ts';
import { PipelineStack } from './stacks/pipeline-stack.ts';
import { StorageStack } from './stacks/storage-stack.ts';
import { WebStack } from './stacks/web-stack.ts';
import { DicomListenerStack } from './stacks/dicom-listener-stack.ts';
import { stateMachineArn, resourceNames } from './resource-names.ts';

export type ImagingStacks = {
  config: StageConfig;
  edge: EdgeStack;
  storage: StorageStack;
  auth: AuthStack;
  pipeline: PipelineStack;
  api: ApiStack;
  web: WebStack;
  dicom: DicomListenerStack;
};

export type BuildOptions = {
  /** Register the cdk-nag packs (AWS Solutions, HIPAA Security) as validation plugins: synth fails on unacknowledged errors. */
  nag?: boolean;
  publishSiteBuild?: boolean;
  /** The built site to publish (default web/dist). */
  siteBuildDir?: string;
};

/**
 * The stacks of one stage, `imaging-<stage>-<concern>`, in deployment order:
 * edge (site bucket + CloudFront: its origin is what CORS allows) → storage (key, table, buckets, secret)
 * → auth (Cognito) → pipeline (task functions, state machine) → api (REST API, domain functions) → web
 * (site files and config.json). The stacks are environment-agnostic, so synth needs no credentials.
 */
export function buildImagingApp(app: App, options: BuildOptions = {}): ImagingStacks {
  const config = loadStageConfig(app.node);
  const id = (concern: string) => `${config.prefix}-${concern}`;
  const description = (what: string) => `Imaging Workspace (${config.stage}): ${what}`;

  const edge = new EdgeStack(app, id('edge'), {
    config,
    description: description('site bucket and CloudFront distribution'),
  });
  const siteOrigins = [...config.extraSiteOrigins, edge.siteOrigin];
  const storage = new StorageStack(app, id('storage'), {
    config,
    siteOrigins,
    description: description('KMS key, table, buckets, secret'),
  });
  storage.addStackDependency(edge, 'upload CORS allows the site origin');
  const auth = new AuthStack(app, id('auth'), {
    config,
    siteOrigins,
    dataKey: storage.dataKey,
    pseudonymSecret: storage.pseudonymSecret,
    description: description('Cognito user pool, groups, SSO providers'),
  });
  auth.addStackDependency(edge, 'SSO callback URLs are the site origin');
  auth.addStackDependency(storage, "the token trigger's log group uses the data key");

  const pipeline = new PipelineStack(app, id('pipeline'), {
    config,
    dataKey: storage.dataKey,
    pseudonymSecret: storage.pseudonymSecret,
    auditDigestKey: storage.auditDigestKey,
    description: description('dataset pipeline state machine and task functions'),
  });
  pipeline.addStackDependency(storage, 'task functions read and write the table and buckets');

  const api = new ApiStack(app, id('api'), {
    config,
    dataKey: storage.dataKey,
    pseudonymSecret: storage.pseudonymSecret,
    auditDigestKey: storage.auditDigestKey,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    stateMachineArn: stateMachineArn(resourceNames(config).stateMachine),
    tokenUrl: auth.tokenUrl,
    siteOrigins,
    description: description('REST API and one function per domain'),
  });
  api.addStackDependency(storage, 'domain functions use the table and buckets');
  api.addStackDependency(auth, 'the authorizer verifies tokens of the user pool');
  api.addStackDependency(pipeline, 'uploads and datasets start the state machine');

  const web = new WebStack(app, id('web'), {
    config,
    distribution: edge.distribution,
    userPool: auth.userPool,
    userPoolClient: auth.userPoolClient,
    apiBaseUrl: api.apiBaseUrl,
    dataKey: storage.dataKey,
    ...(options.publishSiteBuild === undefined ? {} : { publishSiteBuild: options.publishSiteBuild }),
    ...(options.siteBuildDir === undefined ? {} : { siteBuildDir: options.siteBuildDir }),
    description: description('site files and runtime config.json'),
  });
  web.addStackDependency(api, 'config.json names the API URL');
  web.addStackDependency(edge, 'files are published into the site bucket');

  const dicom = new DicomListenerStack(app, id('dicom'), {
    config,
    dataKey: storage.dataKey,
    pseudonymSecret: storage.pseudonymSecret,
    sourceCidrs: config.dicomSourceCidrs,
    description: description('DICOM listener (C-STORE SCP) on Fargate behind a Network Load Balancer'),
  });
  dicom.addStackDependency(storage, 'the listener writes raw instances and reads the table and the secret');

  for (const stack of [edge, storage, auth, pipeline, api, web, dicom]) {
    Tags.of(stack).add('project', 'imaging-workspace');
    Tags.of(stack).add('stage', config.stage);
  }
  if (options.nag ?? true) addComplianceChecks(app);
  return { config, edge, storage, auth, pipeline, api, web, dicom };
}

/**
 * cdk-nag's AWS Solutions and HIPAA Security packs as validation plugins: synth fails on any error that is
 * not acknowledged, with its reason, on the construct it concerns (Validations.of(construct).acknowledge).
 */
export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new HIPAASecurityChecks(app));
}

export function createImagingApp(props: AppProps = {}, options: BuildOptions = {}): { app: App } & ImagingStacks {
  const app = new App(props);
  return { app, ...buildImagingApp(app, options) };
}
