import { NestedStack, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  CognitoUserPoolsAuthorizer,
  Cors,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Resource,
  ResponseType,
  RestApi,
  type CorsOptions,
  type IAuthorizer,
  type IRequestValidator,
  type IResource,
  type Method,
} from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  ConfigurationSet,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ROUTES, routeKey, type ApiDomain, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { DICOM_LISTENER_PORT } from './dicom-listener-stack.ts';
import { API_RESERVED_CONCURRENCY } from '#shared/definitions/api/concurrency.ts';
import { ENV } from '#shared/definitions/env.ts';
import { DICOMWEB_SCOPES } from '#shared/vocabulary/integrations.ts';
import { gatewayErrorBody, gatewayErrorStatus, type GatewayError } from '#shared/definitions/api/gateway-errors.ts';
import type { StageConfig } from '#infra/config.ts';
import { ImagingFunction, type ImagingFunctionProps } from '#infra/constructs/imaging-function.ts';
import {
  API_DOMAIN_GRANTS,
  apiFunctionDeclaration,
  domainEntry,
  MAIL_EVENTS_DECLARATION,
  routedDomains,
  JOB_WORKER_DECLARATION,
  type FunctionDeclaration,
} from '#infra/function-declarations.ts';
import { resourceNames, sesArn } from '#infra/resource-names.ts';

/** API Gateway's own answers, each with its entry of shared/definitions/api/gateway-errors.ts. */
export const GATEWAY_RESPONSES: readonly [id: string, type: ResponseType, error: GatewayError][] = [
  ['Unauthorized', ResponseType.UNAUTHORIZED, 'unauthorized'],
  ['AccessDenied', ResponseType.ACCESS_DENIED, 'accessDenied'],
  // An unknown path or method is "missing authentication token" to API Gateway.
  ['MissingRoute', ResponseType.MISSING_AUTHENTICATION_TOKEN, 'unknownRoute'],
  ['RequestTooLarge', ResponseType.REQUEST_TOO_LARGE, 'bodyTooLarge'],
  ['Throttled', ResponseType.THROTTLED, 'throttled'],
  ['Default5xx', ResponseType.DEFAULT_5XX, 'integrationFailure'],
  ['Default4xx', ResponseType.DEFAULT_4XX, 'rejected'],
];

/** What the proxy integration passes as binary (base64 to and from the functions): DICOMweb's bodies and answers. */
export const BINARY_MEDIA_TYPES = [
  'multipart/related',
  'application/dicom',
  'application/octet-stream',
  'image/jpeg',
  'image/png',
];

/** Re-exported for tests and tools that list the API's functions. */
export { API_DOMAIN_GRANTS as API_DOMAIN_ACCESS, domainEntry, routedDomains };

export type ApiStackProps = StackProps & {
  config: StageConfig;
  dataKey: IKey;
  pseudonymSecret: ISecret;
  /** Signs the audit digests; verification reads its public half (docs/domain.md#signed-digests). */
  auditDigestKey: IKey;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  stateMachineArn: string;
  /** The pool's token endpoint for DICOMweb clients ('' without an auth domain). */
  tokenUrl?: string;
  /** First entry is the origin the API answers CORS for in Lambda responses. */
  siteOrigins: string[];
};

/**
 * The REST API built from the route table: every route of shared/definitions/api/routes.ts becomes a method on its
 * resource, integrated with its domain's Lambda (functions/<domain>/handler.ts). Routes marked `user` need a
 * Cognito ID token (the user-pool authorizer); `public` routes have none. Access logs carry ids and status
 * only, execution logs errors only, never request data; a regional WAF sits in front.
 */
/**
 * API domains whose function and methods are built in the nested stack: CloudFormation holds at most 500 resources a
 * stack, and the API stack alone would pass it. Any domain can move here; these are self-contained enough to.
 */
export const NESTED_API_DOMAINS: ReadonlySet<ApiDomain> = new Set<ApiDomain>(['scim', 'settings', 'jobs']);

export class ApiStack extends Stack {
  readonly api: RestApi;
  readonly domainFunctions: Partial<Record<ApiDomain, ImagingFunction>>;
  readonly jobWorker: ImagingFunction;
  /** The nested stack of the NESTED_API_DOMAINS' functions and methods, on the same REST API. */
  readonly nestedRoutes: NestedStack;
  /** Base URL the site calls, ending in /api (shared/definitions/api/routes.ts paths start with /api). */
  readonly apiBaseUrl: string;
  private readonly mail: { identityArn?: string; configurationSetArn: string };

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);
    const [primaryOrigin] = props.siteOrigins;
    if (!primaryOrigin) throw new Error('ApiStack needs at least one site origin');

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: config.logRetention,
      encryptionKey: props.dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    this.api = new RestApi(this, 'Api', {
      restApiName: names.api,
      description: `Imaging Workspace API (${config.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      cloudWatchRole: true,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        metricsEnabled: true,
        // Execution logs record errors only and never request or response bodies (PHI).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        // Route templates and ids only: the resource path is the template (/api/datasets/{id}), not the request path.
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTimeEpoch',
            httpMethod: '$context.httpMethod',
            resourcePath: '$context.resourcePath',
            status: '$context.status',
            responseLatency: '$context.responseLatency',
            userSub: '$context.authorizer.claims.sub',
            hospitalId: '$context.authorizer.claims.custom:hospitalId',
            wafStatus: '$context.waf.status',
          }),
        ),
      },
      // DICOMweb bodies and answers (docs/dicom-intake.md) pass through the proxy integration as binary: instances,
      // frames and bulk data (multipart/related, application/octet-stream) and renderings (image/jpeg, image/png).
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      defaultCorsPreflightOptions: {
        allowOrigins: props.siteOrigins,
        allowMethods: Cors.ALL_METHODS,
        allowHeaders: ['Authorization', 'Content-Type'],
        allowCredentials: false,
      },
    });
    // What the gateway answers itself never reaches a Lambda: give it the catalogue's body (the same table the local
    // twin's router reads) and CORS headers, so the site reads one error shape from the cloud and the twin.
    const corsHeaders = { 'Access-Control-Allow-Origin': `'${primaryOrigin}'`, Vary: "'Origin'" };
    for (const [id, type, error] of GATEWAY_RESPONSES) {
      this.api.addGatewayResponse(id, {
        type,
        // The defaults keep the gateway's own status (502, 504; 413, 414, 431...); the body is still the catalogue's.
        ...(type === ResponseType.DEFAULT_5XX || type === ResponseType.DEFAULT_4XX
          ? {}
          : { statusCode: String(gatewayErrorStatus(error)) }),
        responseHeaders: corsHeaders,
        templates: { 'application/json': gatewayErrorBody(error) },
      });
    }

    const requestValidator = this.api.addRequestValidator('RequestValidator', {
      requestValidatorName: `${config.prefix}-parameters`,
      // Bodies are validated by the handlers' zod schemas; no method declares a model, so this checks presence rules only.
      validateRequestParameters: true,
      validateRequestBody: true,
    });
    const authorizer = new CognitoUserPoolsAuthorizer(this, 'Authorizer', {
      authorizerName: `${config.prefix}-cognito`,
      cognitoUserPools: [props.userPool],
    });

    this.mail = this.createMail(config, props.dataKey, props.pseudonymSecret);
    // The SCIM domain's function and methods live in a nested stack of their own: the API stack is near
    // CloudFormation's 500 resources of a stack (docs/sso.md#provisioning-scim).
    this.nestedRoutes = new NestedStack(this, 'NestedRoutes', {
      description: 'API domains built beside the API stack: SCIM provisioning, hospital settings, jobs',
    });
    this.domainFunctions = Object.fromEntries(
      routedDomains().map((domain) => [
        domain,
        this.createDomainFunction(
          domain,
          props,
          primaryOrigin,
          NESTED_API_DOMAINS.has(domain) ? this.nestedRoutes : this,
        ),
      ]),
    );
    // The job worker (docs/jobs.md), by its fixed name: the functions that start jobs invoke it asynchronously.
    this.jobWorker = this.createFunction(JOB_WORKER_DECLARATION, props, primaryOrigin, {
      functionName: names.jobWorker,
      concurrencyBound:
        'Invoked once per job started by a super admin or a hospital admin, and once per hand-over of a long job.',
    });
    const integrations = new Map<ApiDomain, LambdaIntegration>();
    for (const route of ROUTES as readonly RouteDefinition[]) {
      if (NESTED_API_DOMAINS.has(route.domain)) continue;
      const fn = this.domainFunctions[route.domain]!;
      if (!integrations.has(route.domain)) {
        integrations.set(
          route.domain,
          new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false, scopePermissionToMethod: false }),
        );
      }
      const resource = this.api.root.resourceForPath(route.path);
      const method = resource.addMethod(
        route.method,
        integrations.get(route.domain),
        route.auth === 'public'
          ? { authorizationType: AuthorizationType.NONE, requestValidator }
          : route.auth === 'client'
            ? // An integration's access token: with authorization scopes the authorizer takes access tokens, any one of
              // the scopes sufficing; the handler then needs the route's own scope in the token and the integration,
              // and answers 403 INSUFFICIENT_SCOPE without it (docs/dicom-intake.md#dicomweb-clients, RFC 6750 3.1).
              {
                authorizationType: AuthorizationType.COGNITO,
                authorizer,
                requestValidator,
                authorizationScopes: Object.values(DICOMWEB_SCOPES),
              }
            : { authorizationType: AuthorizationType.COGNITO, authorizer, requestValidator },
      );
      if (route.auth === 'public')
        acknowledgePublicMethod(
          method,
          `${route.method} ${route.path} is public by the route table: ${route.summary}.`,
        );
    }
    // After the API stack's own resources, so the nested routes attach under those they share.
    const nestedRoutes = (ROUTES as readonly RouteDefinition[]).filter((route) => NESTED_API_DOMAINS.has(route.domain));
    this.addNestedRoutes(nestedRoutes, {
      cors: {
        allowOrigins: props.siteOrigins,
        allowMethods: Cors.ALL_METHODS,
        allowHeaders: ['Authorization', 'Content-Type'],
        allowCredentials: true,
      },
      authorizer: { authorizerId: authorizer.authorizerId, authorizationType: AuthorizationType.COGNITO },
      requestValidator: { requestValidatorId: requestValidator.requestValidatorId } as IRequestValidator,
    });
    for (const method of this.api.methods.filter((m) => m.httpMethod === 'OPTIONS')) {
      acknowledgePublicMethod(
        method,
        'CORS preflight: browsers send OPTIONS without credentials; the mock integration returns headers only.',
      );
    }
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level role API Gateway uses to write execution and access logs; AWS maintains its narrow logs-only policy.',
    });
    Validations.of(this.api.deploymentStage).acknowledge(
      {
        id: 'HIPAA.Security-APIGWCacheEnabledAndEncrypted',
        reason:
          'Responses are per user and may contain patient context; they must not be cached at the gateway at all.',
      },
      {
        id: 'HIPAA.Security-APIGWSSLEnabled',
        reason:
          'Every integration is a Lambda proxy inside AWS; there is no HTTP backend to present a client certificate to.',
      },
    );

    this.addWaf(config, props.dataKey);
    this.apiBaseUrl = `${this.api.url}api`;
  }

  /**
   * E-mail (docs/deployment.md#e-mail): the configuration set every message goes out with, its delivery, bounce,
   * complaint and reject events published to an encrypted topic, and the sender's domain identity when configured.
   */
  private createMail(
    config: StageConfig,
    dataKey: IKey,
    pseudonymSecret: ISecret,
  ): { identityArn?: string; configurationSetArn: string } {
    const names = resourceNames(config);
    const configurationSet = new ConfigurationSet(this, 'MailConfigurationSet', {
      configurationSetName: names.mailConfigurationSet,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    const events = new Topic(this, 'MailEventTopic', {
      topicName: `${config.prefix}-mail-events`,
      masterKey: dataKey,
      enforceSSL: true,
    });
    dataKey.grantEncryptDecrypt(new ServicePrincipal('ses.amazonaws.com'));
    configurationSet.addEventDestination('MailEventsTopic', {
      destination: EventDestination.snsTopic(events),
      events: [
        EmailSendingEvent.DELIVERY,
        EmailSendingEvent.BOUNCE,
        EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.REJECT,
      ],
    });
    const recorder = new ImagingFunction(this, {
      config,
      declaration: MAIL_EVENTS_DECLARATION,
      dataKey,
      pseudonymSecret,
      concurrencyBound:
        'Invoked only by the mail events topic, once per invitation e-mail event; sending bounds its load.',
    });
    events.addSubscription(new LambdaSubscription(recorder));
    const domain = config.mailFrom?.split('@')[1];
    if (domain) {
      new EmailIdentity(this, 'MailIdentity', {
        identity: Identity.domain(domain),
        configurationSet,
      });
    }
    return {
      ...(domain ? { identityArn: sesArn(`identity/${domain}`) } : {}),
      configurationSetArn: sesArn(`configuration-set/${names.mailConfigurationSet}`),
    };
  }

  /**
   * The routes of the nested domains on the same REST API (imported into the nested stack by id): their resources
   * under an existing one of the API stack are attached to it by id, new ones get the site's CORS preflight unless
   * they are SCIM's (servers call them, not browsers). `scim` routes carry a hospital's SCIM token, which no Cognito
   * authorizer knows: the handler looks its SHA-256 up before anything else and answers 401 without one (RFC 7644 2).
   * The API's deployment follows these methods too.
   */
  private addNestedRoutes(
    routes: readonly RouteDefinition[],
    shared: { cors: CorsOptions; authorizer: IAuthorizer; requestValidator: IRequestValidator },
  ): void {
    const scope = this.nestedRoutes;
    const api = RestApi.fromRestApiAttributes(scope, 'Api', {
      restApiId: this.api.restApiId,
      rootResourceId: this.api.restApiRootResourceId,
    });
    const bases = new Map<string, IResource>();
    const resourceFor = (path: string): IResource => {
      const parts = path.split('/').filter(Boolean);
      // The deepest existing resource of the API stack the path goes through, then new resources below it.
      let existing = this.api.root as IResource;
      let reached = 0;
      for (const part of parts) {
        const next = existing.getResource(part);
        if (!next) break;
        existing = next;
        reached += 1;
      }
      const basePath = `/${parts.slice(0, reached).join('/')}`;
      let resource: IResource = bases.get(basePath) ?? (reached === 0 ? api.root : undefined)!;
      if (!resource) {
        resource = Resource.fromResourceAttributes(scope, `Base${bases.size}`, {
          resourceId: existing.resourceId,
          restApi: api,
          path: basePath,
        });
        bases.set(basePath, resource);
      }
      const scim = parts[0] === 'scim';
      for (const part of parts.slice(reached)) {
        const known = resource.getResource(part);
        resource = known ?? resource.addResource(part, scim ? {} : { defaultCorsPreflightOptions: shared.cors });
        const preflight = known ? undefined : resource.node.tryFindChild('OPTIONS');
        if (preflight)
          acknowledgePublicMethod(
            preflight as Method,
            'CORS preflight: browsers send OPTIONS without credentials; the mock integration returns headers only.',
          );
      }
      return resource;
    };
    const integrations = new Map<ApiDomain, LambdaIntegration>();
    for (const route of routes) {
      const fn = this.domainFunctions[route.domain]!;
      if (!integrations.has(route.domain))
        integrations.set(
          route.domain,
          new LambdaIntegration(fn, { proxy: true, allowTestInvoke: false, scopePermissionToMethod: false }),
        );
      const method = resourceFor(route.path).addMethod(
        route.method,
        integrations.get(route.domain),
        route.auth === 'scim'
          ? { authorizationType: AuthorizationType.NONE, requestValidator: shared.requestValidator }
          : {
              authorizationType: AuthorizationType.COGNITO,
              authorizer: shared.authorizer,
              requestValidator: shared.requestValidator,
            },
      );
      if (route.auth === 'scim')
        acknowledgePublicMethod(
          method,
          `${route.method} ${route.path} takes a hospital's SCIM bearer token, checked by its handler against the SHA-256 the table keeps: ${route.summary}.`,
        );
    }
    this.api.latestDeployment?.addToLogicalId({ nested: routes.map(routeKey) });
    this.api.latestDeployment?.node.addDependency(scope);
  }

  private createDomainFunction(
    domain: ApiDomain,
    props: ApiStackProps,
    siteOrigin: string,
    scope: Construct = this,
  ): ImagingFunction {
    return this.createFunction(
      apiFunctionDeclaration(domain),
      props,
      siteOrigin,
      { reservedConcurrency: API_RESERVED_CONCURRENCY },
      scope,
    );
  }

  private createFunction(
    declaration: FunctionDeclaration,
    props: ApiStackProps,
    siteOrigin: string,
    extra: Pick<ImagingFunctionProps, 'reservedConcurrency' | 'concurrencyBound' | 'functionName'>,
    scope: Construct = this,
  ): ImagingFunction {
    return new ImagingFunction(scope, {
      config: props.config,
      declaration,
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      ...extra,
      auditDigestKeyArn: props.auditDigestKey.keyArn,
      stateMachineArn: props.stateMachineArn,
      userPoolArn: props.userPool.userPoolArn,
      mailIdentityArn: this.mail.identityArn,
      mailConfigurationSetArn: this.mail.configurationSetArn,
      environment: {
        [ENV.USER_POOL_ID]: props.userPool.userPoolId,
        [ENV.USER_POOL_CLIENT_ID]: props.userPoolClient.userPoolClientId,
        [ENV.SITE_ORIGIN]: siteOrigin,
        // Empty without a configured sender: invitations are kept, their e-mail waits for Resend.
        [ENV.MAIL_FROM]: props.config.mailFrom ?? '',
        [ENV.MAIL_CONFIGURATION_SET]: resourceNames(props.config).mailConfigurationSet,
        // Where integrations connect (docs/dicom-intake.md); the API's own id, not its URL, so no cycle with its stage.
        [ENV.OAUTH_TOKEN_URL]: props.tokenUrl ?? '',
        [ENV.DICOMWEB_URL]: `https://${this.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${props.config.stage}/dicomweb`,
        [ENV.DICOM_PORT]: String(DICOM_LISTENER_PORT),
      },
    });
  }

  /** AWS managed rule groups plus a per-IP rate limit in front of the API. */
  private addWaf(config: StageConfig, dataKey: IKey): void {
    const managed = (name: string, priority: number, excluded: string[] = [], scopeDown?: object) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(excluded.length
            ? { ruleActionOverrides: excluded.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }
            : {}),
          ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
        },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: false },
    });
    const acl = new CfnWebACL(this, 'ApiWaf', {
      name: `${config.prefix}-api`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${config.prefix}-api`,
        sampledRequestsEnabled: false,
      },
      rules: [
        // An upload session lists up to hundreds of files: larger than the common rule set's 8 KB body limit. DICOMweb
        // bodies and answers are binary DICOM, where the set's text patterns (script, path traversal) would match by
        // chance: those routes skip it, and need an integration's access token at the authorizer (docs/dicom-intake.md).
        managed('AWSManagedRulesCommonRuleSet', 0, ['SizeRestrictions_BODY'], {
          notStatement: {
            statement: {
              byteMatchStatement: {
                searchString: '/dicomweb/',
                fieldToMatch: { uriPath: {} },
                textTransformations: [{ priority: 0, type: 'NONE' }],
                positionalConstraint: 'CONTAINS',
              },
            },
          },
        }),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 1),
        {
          name: 'rate-limit-per-ip',
          priority: 2,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: 3000, aggregateKeyType: 'IP' } },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'rate-limit-per-ip',
            sampledRequestsEnabled: false,
          },
        },
      ],
    });
    new CfnWebACLAssociation(this, 'ApiWafAssociation', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: acl.attrArn,
    });
    // WAF log groups must be named aws-waf-logs-*; tokens and query strings are redacted before logging.
    const wafLogs = new LogGroup(this, 'ApiWafLogs', {
      logGroupName: `aws-waf-logs-${config.prefix}-api`,
      retention: config.logRetention,
      encryptionKey: dataKey,
      removalPolicy: config.dataRemovalPolicy,
    });
    new CfnLoggingConfiguration(this, 'ApiWafLogging', {
      resourceArn: acl.attrArn,
      logDestinationConfigs: [wafLogs.logGroupArn],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }, { queryString: {} }],
    });
  }
}

function acknowledgePublicMethod(method: Method, reason: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
}
