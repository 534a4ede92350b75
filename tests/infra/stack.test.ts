import { EXPORT_RETENTION_DAYS } from '#shared/domain/object-keys.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { LAMBDA_BUNDLING, REPOSITORY_ROOT } from '#infra/constructs/imaging-function.ts';
import {
  apiFunctionDeclarations,
  grantStatements,
  pipelineFunctionDeclarations,
  powertoolsEnvironment,
  type FunctionDeclaration,
  type ResourceArns,
  MAIL_EVENTS_DECLARATION,
  JOB_WORKER_DECLARATION,
} from '#infra/function-declarations.ts';
import {
  API_DOMAIN_ACCESS,
  BINARY_MEDIA_TYPES,
  GATEWAY_RESPONSES,
  NESTED_API_DOMAINS,
  routedDomains,
} from '#infra/stacks/api-stack.ts';
import { gatewayErrorBody, GATEWAY_ERRORS } from '#shared/definitions/api/gateway-errors.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { siteHeaderPolicy } from '#infra/stacks/edge-stack.ts';
import { PIPELINE_TASK_ACCESS } from '#infra/stacks/pipeline-stack.ts';
import { ROUTES, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { ROLES } from '#shared/vocabulary/roles.ts';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import { AUDIT_PENDING_STREAM } from '#shared/definitions/table/keys.ts';
import { ENV } from '#shared/definitions/env.ts';
import {
  ALL_PIPELINE_TASKS,
  buildPipelineDefinition,
  substituteDefinition,
  taskArnVariable,
} from '#shared/definitions/state-machine.ts';
import { synthImagingApp, type SynthesizedApp } from './synth.ts';

type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

let built: SynthesizedApp;
let storage: Template;
let auth: Template;
let pipeline: Template;
let api: Template;
/** The nested stack of the SCIM domain's function and methods, on the same REST API. */
let nestedRoutes: Template;
let edge: Template;
let web: Template;

beforeAll(() => {
  // Prepare: one synthesis of the dev stage for the whole file.
  built = synthImagingApp({ stage: 'dev' });
  storage = built.template(built.storage);
  auth = built.template(built.auth);
  pipeline = built.template(built.pipeline);
  api = built.template(built.api);
  nestedRoutes = Template.fromStack(built.api.nestedRoutes);
  edge = built.template(built.edge);
  web = built.template(built.web);
});

function resources(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.findResources(type) as Record<string, Resource>);
}

/** A bucket resource by the prefix of its logical id (CDK appends a hash). */
function bucket(template: Template, logicalIdPrefix: string): Resource {
  const match = resources(template, 'AWS::S3::Bucket').find(([id]) => id.startsWith(logicalIdPrefix));
  if (!match) throw new Error(`no bucket ${logicalIdPrefix}`);
  return match[1];
}

function policyStatementsOf(template: Template, roleLogicalIdPrefix: string): any[] {
  return resources(template, 'AWS::IAM::Policy')
    .filter(([, policy]) =>
      (policy.Properties.Roles as { Ref: string }[]).some((role) => role.Ref.startsWith(roleLogicalIdPrefix)),
    )
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as any[]);
}

function actionsOf(statements: any[]): string[] {
  return statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

describe('stacks', () => {
  it('names one stack per concern imaging-<stage>-<concern>', () => {
    // Assess
    expect(built.assembly.stacks.map((s) => s.stackName).sort()).toEqual([
      'imaging-dev-api',
      'imaging-dev-auth',
      'imaging-dev-dicom',
      'imaging-dev-edge',
      'imaging-dev-pipeline',
      'imaging-dev-storage',
      'imaging-dev-web',
    ]);
  });
});

describe('storage stack', () => {
  it('builds the single table from TABLE_KEYS with PITR, the customer-managed key and TTL', () => {
    // Assess
    storage.resourceCountIs('AWS::DynamoDB::Table', 1);
    storage.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: 'imaging-dev',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_KEYS.primary.pk, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.primary.sk, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
        IndexName: index.index,
        KeySchema: [
          { AttributeName: index.pk, KeyType: 'HASH' },
          { AttributeName: index.sk, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      AttributeDefinitions: Match.arrayWith([{ AttributeName: TABLE_KEYS.gsi3.sk, AttributeType: 'S' }]),
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    });
    storage.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it("hands the audit appender the table stream's inserted pending events, with read grants on that stream only", () => {
    // Assess
    storage.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: AUDIT_PENDING_STREAM.view },
    });
    const [[, mapping]] = resources(storage, 'AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({
      BatchSize: AUDIT_PENDING_STREAM.batchSize,
      MaximumRetryAttempts: AUDIT_PENDING_STREAM.retryAttempts,
      ParallelizationFactor: 1,
      StartingPosition: 'TRIM_HORIZON',
      EventSourceArn: { 'Fn::GetAtt': [expect.any(String), 'StreamArn'] },
      FunctionName: { Ref: expect.stringMatching(/^AuditAppender/) },
    });
    const filter = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern as string);
    expect(filter).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: [AUDIT_PENDING_STREAM.entity] } } },
    });
    const streamReads = policyStatementsOf(storage, 'AuditAppenderRole').filter((st) =>
      actionsOf([st]).includes('dynamodb:GetRecords'),
    );
    expect(streamReads).toHaveLength(1);
    expect(actionsOf(streamReads).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
    ]);
    expect(streamReads[0].Resource).toEqual(mapping.Properties.EventSourceArn);
  });

  it('deletes the dev table with its stack (RETAIN outside dev is checked in stages.test.ts)', () => {
    // Assess
    const [[, table]] = resources(storage, 'AWS::DynamoDB::Table') as [[string, Resource]];
    expect(table.DeletionPolicy).toBe('Delete');
  });

  it('makes every bucket private, TLS-only, encrypted and logged', () => {
    // Assess
    const buckets = resources(storage, 'AWS::S3::Bucket').concat(resources(edge, 'AWS::S3::Bucket'));
    expect(buckets).toHaveLength(7);
    for (const [, b] of buckets) {
      expect(b.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(
        b.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm,
      ).toMatch(/^(aws:kms|AES256)$/);
    }
    const policies = [...resources(storage, 'AWS::S3::BucketPolicy'), ...resources(edge, 'AWS::S3::BucketPolicy')];
    expect(policies).toHaveLength(7);
    for (const [, policy] of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
    for (const name of ['UploadsBucket', 'StudiesBucket', 'AssetsBucket']) {
      const b = bucket(storage, name);
      expect(b.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0]).toMatchObject({
        BucketKeyEnabled: true,
        ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: expect.anything() },
      });
      expect(b.Properties.LoggingConfiguration).toMatchObject({
        DestinationBucketName: { Ref: expect.stringMatching(/^AccessLogsBucket/) },
      });
    }
  });

  it('keeps the audit digests write-once: Object Lock, versioning, conditional puts only, no deletes, kept on delete', () => {
    // Assess
    const [[, bucket]] = resources(storage, 'AWS::S3::Bucket').filter(([, b]) =>
      JSON.stringify(b.Properties.BucketName).includes('audit-digests'),
    ) as [[string, Resource]];
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.ObjectLockEnabled).toBe(true);
    expect(bucket.Properties.ObjectLockConfiguration.Rule.DefaultRetention).toMatchObject({ Mode: 'GOVERNANCE' });
    const [[, policy]] = resources(storage, 'AWS::S3::BucketPolicy').filter(([, p]) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('DigestsAreWrittenOnce'),
    ) as [[string, Resource]];
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Sid: 'DigestsAreWrittenOnce',
          Effect: 'Deny',
          Action: 's3:PutObject',
          Condition: { Null: { 's3:if-none-match': 'true' } },
        }),
        expect.objectContaining({
          Sid: 'DigestsAreNeverDeleted',
          Effect: 'Deny',
          Action: ['s3:BypassGovernanceRetention', 's3:DeleteObject', 's3:DeleteObjectVersion'],
        }),
      ]),
    );
    const [[, key]] = resources(storage, 'AWS::KMS::Key').filter(
      ([, k]) => k.Properties.KeySpec === 'ECC_NIST_P256',
    ) as [[string, Resource]];
    expect(key).toMatchObject({ DeletionPolicy: 'Retain', Properties: { KeyUsage: 'SIGN_VERIFY' } });
  });

  it('lets only the digest writer sign with the digest key, and the verifications read its public half', () => {
    // Assess: every statement on the digest key, across the stacks, by the role that holds it.
    const onKey = [storage, pipeline, api, nestedRoutes]
      .flatMap((stack) => resources(stack, 'AWS::IAM::Policy'))
      .flatMap(([, p]) =>
        (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
          .filter((s) => JSON.stringify(s.Resource).includes('AuditDigestKey'))
          .map((s) => ({ roles: JSON.stringify(p.Properties.Roles), actions: [s.Action].flat() })),
      );
    const signers = onKey.filter((s) => s.actions.includes('kms:Sign'));
    expect(signers.length).toBe(1);
    expect(signers[0]!.roles).toMatch(/WriteAuditDigests/);
    expect(signers[0]!.actions).toEqual(['kms:Sign']);
    const readers = onKey.filter((s) => s.actions.includes('kms:GetPublicKey'));
    // The audit function's incremental verification and the job worker's full one (docs/jobs.md).
    expect(readers.length).toBe(2);
    expect(readers.every((r) => /AuditFunction|JobWorker/.test(r.roles))).toBe(true);
    expect(onKey.every((s) => s.actions.every((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey'))).toBe(true);
  });

  it('versions studies and assets, where de-identified data lives, and not raw uploads', () => {
    // Assess
    expect(bucket(storage, 'StudiesBucket').Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket(storage, 'AssetsBucket').Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket(storage, 'UploadsBucket').Properties.VersioningConfiguration).toBeUndefined();
  });

  it('expires raw uploads after days and aborts incomplete multipart uploads', () => {
    // Assess
    expect(bucket(storage, 'UploadsBucket').Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({
        Status: 'Enabled',
        ExpirationInDays: 2,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      }),
    ]);
  });

  it('expires staged WADO-RS retrievals in the studies bucket after a day', () => {
    // Assess
    expect(bucket(storage, 'StudiesBucket').Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', Prefix: 'retrievals/', ExpirationInDays: 1 }),
    );
  });

  it('expires dataset exports in the studies bucket when their links stop being issued (docs/exports.md)', () => {
    // Assess
    expect(bucket(storage, 'StudiesBucket').Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', Prefix: 'exports/', ExpirationInDays: EXPORT_RETENTION_DAYS }),
    );
  });

  it('allows presigned multipart uploads from the site origin only, exposing ETag', () => {
    // Assess
    const [rule] = bucket(storage, 'UploadsBucket').Properties.CorsConfiguration.CorsRules;
    expect(rule.AllowedMethods).toContain('PUT');
    expect(rule.ExposedHeaders).toEqual(['ETag']);
    expect(JSON.stringify(rule.AllowedOrigins)).toContain('SiteDistribution');
    expect(JSON.stringify(rule.AllowedOrigins)).not.toContain('"*"');
  });

  it('keeps the pseudonymisation key in Secrets Manager under the data key', () => {
    // Assess
    storage.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'imaging-dev/pseudonym-key',
      KmsKeyId: Match.anyValue(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
  });
});

describe('auth stack', () => {
  it('has one user-pool group per role and the hospital and team attributes', () => {
    // Assess
    const groups = resources(auth, 'AWS::Cognito::UserPoolGroup').map(([, g]) => g.Properties.GroupName);
    expect(groups.sort()).toEqual([...ROLES].sort());
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'hospitalId', AttributeDataType: 'String', Mutable: true }),
        Match.objectLike({ Name: 'teamId', AttributeDataType: 'String', Mutable: true }),
      ]),
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true }) },
    });
  });

  it('lets a user write only their own names, never the hospital or team attributes', () => {
    // Assess
    const [, client] = resources(auth, 'AWS::Cognito::UserPoolClient')[0]!;
    expect([...client.Properties.WriteAttributes].sort()).toEqual(['family_name', 'given_name']);
  });

  it('has a site client without secret allowing USER_PASSWORD_AUTH, SRP and refresh', () => {
    // Assess
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayEquals([
        'ALLOW_USER_PASSWORD_AUTH',
        'ALLOW_USER_SRP_AUTH',
        'ALLOW_REFRESH_TOKEN_AUTH',
      ]),
      SupportedIdentityProviders: ['COGNITO'],
    });
    auth.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
  });
});

describe('api stack', () => {
  const routes = ROUTES as readonly RouteDefinition[];

  it('deploys one Lambda per domain that has routes, from functions/<domain>/handler.ts', () => {
    // Assess
    const domains = routedDomains();
    expect(new Set(domains)).toEqual(new Set(routes.map((r) => r.domain)));
    expect(Object.keys(built.api.domainFunctions).sort()).toEqual([...domains].sort());
    // The nested domains' functions are in the nested stack with their methods.
    const all = [...resources(api, 'AWS::Lambda::Function'), ...resources(nestedRoutes, 'AWS::Lambda::Function')];
    // Besides the domain functions, the API stack holds the recorder of mail delivery events and the job worker.
    const others = [MAIL_EVENTS_DECLARATION.description, JOB_WORKER_DECLARATION.description];
    const functions = all.filter(([, fn]) => !others.includes(fn.Properties.Description));
    expect(all.length - functions.length).toBe(2);
    expect(functions).toHaveLength(domains.length);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/Logs/) } },
      });
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
        expect.arrayContaining([ENV.STAGE, ENV.SITE_ORIGIN]),
      );
    }
  });

  it('deploys the job worker by its fixed name, invoked only by the functions that start jobs (docs/jobs.md)', () => {
    // Assess
    const [, worker] = resources(api, 'AWS::Lambda::Function').find(
      ([, fn]) => fn.Properties.Description === JOB_WORKER_DECLARATION.description,
    )!;
    expect(worker.Properties).toMatchObject({ FunctionName: 'imaging-dev-job-worker', Timeout: 900 });
    expect(Object.keys(worker.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining([ENV.JOB_WORKER_FUNCTION, ENV.SITE_ORIGIN, ENV.USER_POOL_ID, ENV.MAIL_FROM]),
    );
    const starters = Object.entries(apiFunctionDeclarations())
      .filter(([, declaration]) => declaration.env.includes(ENV.JOB_WORKER_FUNCTION))
      .map(([domain]) => domain);
    expect(starters.sort()).toEqual(['audit', 'datasets', 'hospitals', 'integrations', 'invitations', 'reports']);
    const invokes = grantStatements(JOB_WORKER_DECLARATION, SYMBOLS).filter((g) =>
      g.actions.includes('lambda:InvokeFunction'),
    );
    expect(invokes.flatMap((g) => g.resources).sort()).toEqual(['auditAppender', 'jobWorker']);
  });

  it('creates every route of the table as a method, with the Cognito authorizer exactly on user and client routes', () => {
    // Assess
    const pathOf = new Map<string, string>();
    const resourceEntries = resources(api, 'AWS::ApiGateway::Resource');
    const resolvePath = (logicalId: string): string => {
      if (pathOf.has(logicalId)) return pathOf.get(logicalId)!;
      const [, r] = resourceEntries.find(([id]) => id === logicalId)!;
      const parent = r.Properties.ParentId;
      const prefix = parent['Fn::GetAtt'] ? '' : resolvePath(parent.Ref);
      const full = `${prefix}/${r.Properties.PathPart}`;
      pathOf.set(logicalId, full);
      return full;
    };
    const methods = resources(api, 'AWS::ApiGateway::Method')
      .filter(([, m]) => m.Properties.HttpMethod !== 'OPTIONS')
      .map(([, m]) => ({
        key: `${m.Properties.HttpMethod} ${resolvePath(m.Properties.ResourceId.Ref)}`,
        props: m.Properties,
      }));
    // The nested domains' methods are the nested stack's (the API stack's resource count), on the same REST API.
    const own = routes.filter((r) => !NESTED_API_DOMAINS.has(r.domain));
    const nested = routes.filter((r) => NESTED_API_DOMAINS.has(r.domain));
    expect(methods.map((m) => m.key).sort()).toEqual(own.map((r) => `${r.method} ${r.path}`).sort());
    const nestedMethods = resources(nestedRoutes, 'AWS::ApiGateway::Method')
      .filter(([, m]) => m.Properties.HttpMethod !== 'OPTIONS')
      .map(([, m]) => m.Properties);
    expect(nestedMethods.map((m) => m.HttpMethod).sort()).toEqual(nested.map((r) => r.method).sort());
    expect(nestedMethods.filter((m) => m.AuthorizationType === 'NONE')).toHaveLength(
      nested.filter((r) => r.auth === 'scim').length,
    );
    expect(nestedMethods.filter((m) => m.AuthorizationType === 'COGNITO_USER_POOLS')).toHaveLength(
      nested.filter((r) => r.auth === 'user').length,
    );
    for (const route of own) {
      const method = methods.find((m) => m.key === `${route.method} ${route.path}`)!;
      // SCIM routes carry a hospital's SCIM token, which their handler checks (docs/sso.md#provisioning-scim).
      if (route.auth === 'public' || route.auth === 'scim') {
        expect(method.props.AuthorizationType, method.key).toBe('NONE');
        expect(method.props.AuthorizerId).toBeUndefined();
      } else {
        expect(method.props.AuthorizationType, method.key).toBe('COGNITO_USER_POOLS');
        expect(method.props.AuthorizerId, method.key).toEqual({ Ref: expect.stringMatching(/^Authorizer/) });
      }
      const fnLogicalId = method.props.Integration.Uri['Fn::Join'][1].find((part: any) => part['Fn::GetAtt'])[
        'Fn::GetAtt'
      ][0];
      expect(fnLogicalId).toMatch(
        new RegExp(
          `^${route.domain
            .split('-')
            .map((p) => p[0]!.toUpperCase() + p.slice(1))
            .join('')}Function`,
        ),
      );
    }
    api.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'COGNITO_USER_POOLS',
      IdentitySource: 'method.request.header.Authorization',
    });
  });

  it('logs access without request data, traces, and sits behind a WAF', () => {
    // Assess
    api.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      MethodSettings: [Match.objectLike({ DataTraceEnabled: false, LoggingLevel: 'ERROR' })],
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
    const [[, stage]] = resources(api, 'AWS::ApiGateway::Stage') as [[string, Resource]];
    expect(stage.Properties.AccessLogSetting.Format).toContain('$context.resourcePath');
    expect(stage.Properties.AccessLogSetting.Format).not.toMatch(/\$context\.path|requestOverride|\$input/);
    api.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    api.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      RedactedFields: Match.arrayWith([{ SingleHeader: { Name: 'authorization' } }]),
    });
  });

  it('grants each domain only its access: pipeline start for uploads and datasets, the secret for datasets', () => {
    // Assess
    const statements = (domain: string) => policyStatementsOf(api, `${domain}FunctionRole`);
    expect(actionsOf(statements('Uploads'))).toContain('states:StartExecution');
    expect(actionsOf(statements('Datasets'))).toEqual(
      expect.arrayContaining(['states:StartExecution', 'secretsmanager:GetSecretValue']),
    );
    expect(actionsOf(statements('Uploads'))).not.toContain('secretsmanager:GetSecretValue');
    expect(actionsOf(statements('Health'))).not.toEqual(expect.arrayContaining(['dynamodb:GetItem']));
    expect(actionsOf(statements('Health'))).not.toContain('s3:GetObject');
    expect(actionsOf(statements('Auth'))).not.toContain('states:StartExecution');
    expect(API_DOMAIN_ACCESS.uploads.startsPipeline && API_DOMAIN_ACCESS.datasets.startsPipeline).toBe(true);
    const uploadsMultipart = statements('Uploads').find((s) => actionsOf([s]).includes('s3:ListMultipartUploadParts'));
    expect(JSON.stringify(uploadsMultipart.Resource)).toContain('imaging-dev-uploads-');
  });

  it('uses "*" as a resource only for X-Ray and SMS, and never an action wildcard, in function roles', () => {
    // Assess
    for (const template of [api, pipeline]) {
      for (const [, policy] of resources(template, 'AWS::IAM::Policy')) {
        const isFunctionRole = (policy.Properties.Roles as { Ref: string }[]).some((r) => /FunctionRole/.test(r.Ref));
        if (!isFunctionRole) continue;
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          const actions = actionsOf([statement]);
          expect(
            actions.filter((a) => a.includes('*')),
            JSON.stringify(statement),
          ).toEqual([]);
          // SNS Publish to a phone number names no topic, so IAM can only authorise it on "*".
          if (statement.Resource === '*')
            expect(actions.every((a) => a.startsWith('xray:') || a === 'sns:Publish')).toBe(true);
        }
      }
    }
  });
});

/**
 * A synthesized resource reference as a symbol the declarations can be written in: the table, an index, a bucket
 * (or its objects), the state machine, the secret, the user pool, the data key.
 */
function symbolOf(resource: unknown): string {
  const text = JSON.stringify(resource);
  if (text === '"*"') return '*';
  const objects = text.endsWith('/*"]]}') ? '/*' : '';
  const index = /:table\/imaging-dev\/index\/(\w+)/.exec(text);
  if (index) return `table/index/${index[1]}`;
  if (/:table\/imaging-dev"/.test(text)) return 'table';
  const bucket = /:s3:::imaging-dev-(uploads|studies|assets)-/.exec(text);
  if (bucket) return `bucket:${bucket[1]}${objects}`;
  if (text.includes(':stateMachine:imaging-dev-pipeline')) return 'stateMachine';
  if (text.includes('PseudonymSecret')) return 'pseudonymSecret';
  if (text.includes('UserPool')) return 'userPool';
  if (text.includes('DataKey')) return 'dataKey';
  if (text.includes(':configuration-set/imaging-dev-mail')) return 'mailConfigurationSet';
  if (text.includes(':function:imaging-dev-audit-appender')) return 'auditAppender';
  if (text.includes(':function:imaging-dev-job-worker')) return 'jobWorker';
  if (text.includes('imaging-dev-audit-digests')) return `auditDigestBucket${objects}`;
  if (text.includes('AuditDigestKey')) return 'auditDigestKey';
  return `unknown:${text}`;
}

const SYMBOLS: ResourceArns = {
  table: 'table',
  buckets: { uploads: 'bucket:uploads', studies: 'bucket:studies', assets: 'bucket:assets' },
  stateMachine: 'stateMachine',
  pseudonymSecret: 'pseudonymSecret',
  userPool: 'userPool',
  dataKey: 'dataKey',
  mailConfigurationSet: 'mailConfigurationSet',
  auditAppender: 'auditAppender',
  jobWorker: 'jobWorker',
  auditDigestBucket: 'auditDigestBucket',
  auditDigestKey: 'auditDigestKey',
};

/** "action resource" pairs: statements compare the same however CDK merges them. */
function pairs(statements: { actions: string[]; resources: string[] }[]): string[] {
  return [...new Set(statements.flatMap((s) => s.actions.flatMap((a) => s.resources.map((r) => `${a} ${r}`))))].sort();
}

describe('function declarations (the same ones the local twin runs)', () => {
  const declared: [FunctionDeclaration, () => Template][] = [
    ...Object.values(apiFunctionDeclarations()).map((d): [FunctionDeclaration, () => Template] => [
      d!,
      () =>
        [...NESTED_API_DOMAINS].some((domain) => apiFunctionDeclarations()[domain]?.id === d!.id) ? nestedRoutes : api,
    ]),
    ...Object.values(pipelineFunctionDeclarations()).map((d): [FunctionDeclaration, () => Template] => [
      d,
      () => pipeline,
    ]),
  ];

  it.each(declared.map(([d, t]) => ({ id: d.id, declaration: d, template: t })))(
    '$id gets exactly its declared environment, memory, timeout and IAM grants',
    ({ declaration, template }) => {
      // Prepare
      const [, fn] = resources(template(), 'AWS::Lambda::Function').find(([id]) => id.startsWith(declaration.id))!;
      const statements = policyStatementsOf(template(), `${declaration.id}Role`)
        .map((s) => ({
          actions: Array.isArray(s.Action) ? (s.Action as string[]) : [s.Action as string],
          resources: (Array.isArray(s.Resource) ? (s.Resource as unknown[]) : [s.Resource]).map(symbolOf),
        }))
        // The log group and X-Ray grants are the construct's own, the same for every function (CDK may merge them
        // into another statement on "*", such as SMS publishing).
        .map((s) => ({ ...s, actions: s.actions.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:')) }))
        .filter((s) => s.actions.length > 0);

      // Assess
      expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(
        [...declaration.env, ...Object.keys(powertoolsEnvironment(declaration)), 'NODE_OPTIONS'].sort(),
      );
      expect(fn.Properties).toMatchObject({ MemorySize: declaration.memoryMb, Timeout: declaration.timeoutSeconds });
      expect(pairs(statements)).toEqual(pairs(grantStatements(declaration, SYMBOLS)));
    },
  );

  it('names a bucket, the table or the secret in the environment only where it is granted', () => {
    for (const [declaration] of declared) {
      const buckets = Object.keys(declaration.buckets ?? {});
      expect(declaration.env.includes(ENV.TABLE_NAME), declaration.id).toBe(declaration.table !== undefined);
      expect(declaration.env.includes(ENV.UPLOADS_BUCKET), declaration.id).toBe(buckets.includes('uploads'));
      expect(declaration.env.includes(ENV.STUDIES_BUCKET), declaration.id).toBe(buckets.includes('studies'));
      expect(declaration.env.includes(ENV.ASSETS_BUCKET), declaration.id).toBe(buckets.includes('assets'));
      expect(declaration.env.includes(ENV.PSEUDONYM_SECRET_ARN), declaration.id).toBe(!!declaration.pseudonymSecret);
      expect(declaration.env.includes(ENV.STATE_MACHINE_ARN), declaration.id).toBe(!!declaration.startsPipeline);
    }
  });

  it('bundles the AWS SDK into every function instead of using the one the runtime ships', async () => {
    // Assess the options every ImagingFunction is built with.
    expect(LAMBDA_BUNDLING.externalModules).toEqual([]);
    expect(LAMBDA_BUNDLING.bundleAwsSDK).toBe(true);
    // Act: esbuild with those externals on a real entry, as the CDK's local bundling runs it.
    const result = await build({
      entryPoints: [path.join(REPOSITORY_ROOT, 'functions/health/handler.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      target: LAMBDA_BUNDLING.target,
      mainFields: LAMBDA_BUNDLING.mainFields,
      external: LAMBDA_BUNDLING.externalModules,
      logLevel: 'silent',
    });
    // Assess: the SDK's client code is inside the bundle, not an import left for the runtime.
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(inputs.some((file) => file.includes('node_modules/@aws-sdk/client-s3/'))).toBe(true);
    expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^@aws-sdk\//)]),
    );
  }, 60_000);
});

describe('api gateway responses', () => {
  it('answers unknown routes and oversized bodies itself, with the catalogue entries the local twin sends', () => {
    // Assess
    const expected = [
      ['MISSING_AUTHENTICATION_TOKEN', 'unknownRoute', 'ENDPOINT_NOT_IMPLEMENTED', '404'],
      ['REQUEST_TOO_LARGE', 'bodyTooLarge', 'PAYLOAD_TOO_LARGE', '413'],
      ['UNAUTHORIZED', 'unauthorized', 'NO_TOKEN', '401'],
      ['ACCESS_DENIED', 'accessDenied', 'ACCESS_DENIED', '403'],
    ] as const;
    for (const [type, error, code, status] of expected) {
      expect(GATEWAY_ERRORS[error]).toBe(code);
      api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: status,
        ResponseTemplates: {
          'application/json': JSON.stringify({ error: { code, message: ERROR_CATALOGUE[code].message } }),
        },
      });
    }
    api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'DEFAULT_5XX',
      ResponseTemplates: { 'application/json': gatewayErrorBody('integrationFailure') },
    });
    // Every other refusal at the door (an oversized URL or headers among them) keeps its status, with a catalogue body.
    const [, default4xx] = resources(api, 'AWS::ApiGateway::GatewayResponse').find(
      ([, r]) => r.Properties.ResponseType === 'DEFAULT_4XX',
    )!;
    expect(default4xx.Properties.ResponseTemplates).toEqual({ 'application/json': gatewayErrorBody('rejected') });
    expect(default4xx.Properties.StatusCode).toBeUndefined();
    expect(resources(api, 'AWS::ApiGateway::GatewayResponse')).toHaveLength(GATEWAY_RESPONSES.length);
  });

  it('passes every media type a DICOMweb route answers as binary: instances, frames, bulk data and renderings', () => {
    // Assess
    api.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: BINARY_MEDIA_TYPES });
    for (const type of [
      'multipart/related',
      'application/dicom',
      'application/octet-stream',
      'image/jpeg',
      'image/png',
    ])
      expect(BINARY_MEDIA_TYPES, type).toContain(type);
  });
});

describe('pipeline stack', () => {
  it('uses the definition of shared/definitions/state-machine.ts with every task ARN substituted', () => {
    // Assess
    const [[, machine]] = resources(pipeline, 'AWS::StepFunctions::StateMachine') as [[string, Resource]];
    expect(JSON.parse(machine.Properties.DefinitionString)).toEqual(buildPipelineDefinition());
    const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, any>;
    expect(Object.keys(substitutions).sort()).toEqual(ALL_PIPELINE_TASKS.map((t) => taskArnVariable(t.state)).sort());
    const markers = Object.fromEntries(
      Object.entries(substitutions).map(([name, value]) => [name, `arn-of:${value['Fn::GetAtt'][0]}`]),
    );
    const substituted = JSON.stringify(substituteDefinition(buildPipelineDefinition(), markers));
    expect(substituted).not.toMatch(/\$\{\w+\}/);
    for (const task of ALL_PIPELINE_TASKS) {
      expect(markers[taskArnVariable(task.state)]).toMatch(new RegExp(`^arn-of:${task.state}Function`));
    }
  });

  it('gives each task Lambda the memory and timeout of its definition', () => {
    // Assess
    for (const task of ALL_PIPELINE_TASKS) {
      const [, fn] = resources(pipeline, 'AWS::Lambda::Function').find(([id]) =>
        id.startsWith(`${task.state}Function`),
      )!;
      expect(fn.Properties, task.state).toMatchObject({
        MemorySize: task.memoryMb,
        Timeout: task.timeoutSeconds,
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
      });
      expect(PIPELINE_TASK_ACCESS[task.state], task.state).toBeDefined();
    }
  });

  it('logs ALL events without execution data (PHI) and traces', () => {
    // Assess
    pipeline.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: 'imaging-dev-pipeline',
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false, Destinations: Match.anyValue() },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('lets only DeidentifyStudy of the tasks read the pseudonymisation secret', () => {
    // Assess
    for (const task of ALL_PIPELINE_TASKS) {
      const actions = actionsOf(policyStatementsOf(pipeline, `${task.state}FunctionRole`));
      expect(actions.includes('secretsmanager:GetSecretValue'), task.state).toBe(task.state === 'DeidentifyStudy');
    }
  });
});

describe('edge and web stacks', () => {
  it('serves the site through CloudFront with origin access control and security headers', () => {
    // Assess
    edge.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    edge.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          StrictTransportSecurity: Match.objectLike({
            AccessControlMaxAgeSec: 63072000,
            IncludeSubdomains: true,
            Override: true,
          }),
          ContentSecurityPolicy: {
            ContentSecurityPolicy: built.edge.resolve(siteHeaderPolicy(built.config)),
            Override: true,
          },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentTypeOptions: { Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          XSSProtection: Match.objectLike({ Protection: true }),
        },
      }),
    });
    expect(siteHeaderPolicy(built.config)).toContain("frame-ancestors 'none'");
    edge.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          ResponseHeadersPolicyId: Match.anyValue(),
        }),
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      }),
    });
  });

  it('publishes /config.json with region, user pool, client and API base URL', () => {
    // Prepare
    const [[, deployment]] = resources(web, 'Custom::CDKBucketDeployment') as [[string, Resource]];
    const [objectKey] = deployment.Properties.SourceObjectKeys as string[];
    const assetDir = path.join(built.assembly.directory, `asset.${objectKey!.replace(/\.zip$/, '')}`);
    const [markers] = deployment.Properties.SourceMarkers as Record<string, unknown>[];

    // Act: put a readable form of what CloudFormation substitutes back in place of each marker.
    const text = readFileSync(path.join(assetDir, 'config.json'), 'utf8').replace(/<<marker:0xbaba:\d+>>/g, (marker) =>
      flattenCfnReference(markers![marker]),
    );
    const config = JSON.parse(text) as Record<string, string>;

    // Assess
    expect(Object.keys(config).sort()).toEqual(['apiBaseUrl', 'mode', 'region', 'userPoolClientId', 'userPoolId']);
    expect(config.mode).toBe('cloud');
    expect(config.region).toBe('<AWS::Region>');
    expect(config.userPoolId).toMatch(/^imaging-dev-auth:ExportsOutputRefUserPool[0-9A-F]+$/);
    expect(config.userPoolClientId).toMatch(/^imaging-dev-auth:ExportsOutputRefUserPoolSiteClient[0-9A-F]+$/);
    expect(config.apiBaseUrl).toMatch(
      /^https:\/\/imaging-dev-api:ExportsOutputRefApi[0-9A-F]+\.execute-api\.<AWS::Region>\.<AWS::URLSuffix>\/imaging-dev-api:.*\/api$/,
    );
    expect(deployment.Properties.Prune).toBe(false);
    expect(JSON.stringify(deployment.Properties.DestinationBucketName)).toContain('imaging-dev-site-');
  });
});
