import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  StandardThreatProtectionMode,
  ClientAttributes,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolOperation,
} from 'aws-cdk-lib/aws-cognito';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ROLES, ROLE_TITLES } from '#shared/vocabulary/roles.ts';
import { DICOMWEB_RESOURCE_SERVER } from '#shared/vocabulary/integrations.ts';
import type { StageConfig } from '#infra/config.ts';
import { ENV } from '#shared/definitions/env.ts';
import {
  FEDERATED_PLACEMENT_ACTIONS,
  TOKEN_USER_ACTIONS,
  POST_CONFIRMATION_DECLARATION,
  PRE_SIGN_UP_DECLARATION,
  PRE_TOKEN_GENERATION_DECLARATION,
  SIGN_IN_EVENTS_DECLARATION,
} from '#infra/function-declarations.ts';
import { IDP_AMR_ATTRIBUTE_NAME, IDP_GROUPS_ATTRIBUTE_NAME } from '#shared/domain/auth/id-token.ts';
import { ImagingFunction } from '#infra/constructs/imaging-function.ts';
import { resourceNames, stageMail } from '#infra/resource-names.ts';

/** Custom attributes of a user: the tenant and team the API scopes every request to. */
export const CUSTOM_ATTRIBUTES = {
  hospitalId: 'hospitalId',
  teamId: 'teamId',
  idpAmr: IDP_AMR_ATTRIBUTE_NAME,
  idpGroups: IDP_GROUPS_ATTRIBUTE_NAME,
} as const;

export type AuthStackProps = StackProps & {
  config: StageConfig;
  /** Origins allowed as OAuth callback/sign-out URLs when SSO is configured. */
  siteOrigins: string[];
  /** Key of the stage's logs and data (the trigger's log group). */
  dataKey: IKey;
  pseudonymSecret: ISecret;
};

/**
 * The Cognito user pool: e-mail sign-in, one group per role (shared/vocabulary/roles.ts), the hospital and team as
 * custom attributes (writable only by administrators through the API, never by the user), one app client
 * for the site, and one SAML or OIDC identity provider per hospital e-mail domain from context.
 *
 * MFA: TOTP is offered to every local account (OPTIONAL; `-c mfa=REQUIRED` makes it compulsory for all). A
 * pre-token-generation trigger marks ID tokens whose sign-in a second factor vouches for (the `mfa` claim: TOTP
 * enabled, or a federated account whose identity provider reports a second factor in `custom:idpAmr`), and in prod the
 * API refuses the super admin, hospital admins and team leads without it (functions/lib/caller.ts).
 */
export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  /** The pool's token endpoint (client-credentials grant of DICOMweb clients), once a domain is configured. */
  readonly tokenUrl: string = '';

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: resourceNames(config).userPool,
      // Accounts are created by administrators and invitations, never by self sign-up.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: {
        [CUSTOM_ATTRIBUTES.hospitalId]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: true }),
        [CUSTOM_ATTRIBUTES.teamId]: new StringAttribute({ minLen: 0, maxLen: 64, mutable: true }),
        // Written by Cognito from the identity provider at each federated sign-in (mapped attributes must be mutable).
        [CUSTOM_ATTRIBUTES.idpAmr]: new StringAttribute({ minLen: 0, maxLen: 2048, mutable: true }),
        // The user's groups at the provider, mapped from its groups claim (docs/sso.md#roles-from-groups).
        [CUSTOM_ATTRIBUTES.idpGroups]: new StringAttribute({ minLen: 0, maxLen: 2048, mutable: true }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: config.mfa === 'REQUIRED' ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: config.threatProtection ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      ...(config.threatProtection ? { standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      deletionProtection: config.isProduction,
      removalPolicy: config.dataRemovalPolicy,
    });
    if (config.mfa !== 'REQUIRED') {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason:
          'SSO users authenticate at their hospital IdP, which enforces MFA; local accounts may enrol TOTP. Set -c mfa=REQUIRED to enforce it for every local account.',
      });
    }
    if (!config.threatProtection) {
      const reason =
        'Threat protection (feature plan PLUS) is billed per user and enabled in prod; dev and staging hold demo accounts only.';
      Validations.of(this.userPool).acknowledge(
        { id: 'AwsSolutions-COG3', reason },
        { id: 'AwsSolutions-COG8', reason },
      );
    }

    this.addMfaClaimTrigger(props);
    this.addSignInCounting(props);
    this.addFederationTrigger(props);

    ROLES.forEach((role, precedence) => {
      new CfnUserPoolGroup(this, `Group${role}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: role,
        description: ROLE_TITLES[role],
        // Lower precedence wins when a user is in several groups: SUPER_ADMIN first, GUEST last.
        precedence,
      });
    });

    if (config.authDomainPrefix) {
      this.userPool.addDomain('HostedDomain', { cognitoDomain: { domainPrefix: config.authDomainPrefix } });
      this.tokenUrl = `https://${config.authDomainPrefix}.auth.${this.region}.amazoncognito.com/oauth2/token`;
    }
    // DICOMweb clients (docs/dicom-intake.md#dicomweb-clients): app clients made at run time get these two scopes.
    this.userPool.addResourceServer('DicomWebResourceServer', {
      identifier: DICOMWEB_RESOURCE_SERVER,
      userPoolResourceServerName: `${config.prefix}-dicomweb`,
      scopes: [
        new ResourceServerScope({ scopeName: 'read', scopeDescription: 'QIDO-RS and WADO-RS' }),
        new ResourceServerScope({ scopeName: 'write', scopeDescription: 'STOW-RS and commit' }),
      ],
    });

    // Hospitals connect their OIDC providers at run time (docs/sso.md): with a hosted-login domain the site client has
    // the authorization-code flow, and the settings function adds each provider to its SupportedIdentityProviders.
    const hasSso = !!config.authDomainPrefix;
    this.userPoolClient = this.userPool.addClient('SiteClient', {
      userPoolClientName: `${config.prefix}-site`,
      generateSecret: false,
      // USER_PASSWORD_AUTH is what the local stand-in supports (the site uses it everywhere); SRP stays available.
      authFlows: { userPassword: true, userSrp: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Users may edit their names only: hospital and team attributes are set by admins, never by the user's own token.
      // With SSO the client must also write what the providers map (Cognito updates mapped attributes through it):
      // idpAmr, which the trigger reads for federated accounts only, whose hosted-UI tokens (openid, email, profile)
      // cannot call UpdateUserAttributes.
      writeAttributes: new ClientAttributes()
        .withStandardAttributes({ givenName: true, familyName: true })
        .withCustomAttributes(...(hasSso ? [CUSTOM_ATTRIBUTES.idpAmr, CUSTOM_ATTRIBUTES.idpGroups] : [])),
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(1),
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      ...(hasSso
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
              callbackUrls: props.siteOrigins.map((origin) => `${origin}/`),
              logoutUrls: props.siteOrigins.map((origin) => `${origin}/`),
            },
          }
        : { disableOAuth: true }),
    });
  }

  private addMfaClaimTrigger(props: AuthStackProps): void {
    const trigger = new ImagingFunction(this, {
      config: props.config,
      declaration: PRE_TOKEN_GENERATION_DECLARATION,
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      concurrencyBound:
        'Invoked only by the user pool, once per token issued; the pool quotas on sign-ins and refreshes bound its load.',
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION, trigger);
    // A policy of its own, not the role's default policy: the function must exist before the pool that invokes it,
    // and this statement names the pool, so the function may not wait for it.
    const readMfa = new Policy(this, 'PreTokenGenerationReadsMfa', {
      roles: [trigger.executionRole],
      statements: [new PolicyStatement({ actions: TOKEN_USER_ACTIONS, resources: [this.userPool.userPoolArn] })],
    });
    Validations.of(readMfa).acknowledge({
      id: 'HIPAA.Security-IAMNoInlinePolicy',
      reason:
        "The trigger's one extra statement (its user reads and role-group moves on this pool) is kept apart from its default policy to break the pool-function dependency cycle.",
    });
  }

  /**
   * Sign-in attempts and successes per hospital (functions/triggers/sign-in-events.ts): one function, two triggers. A
   * burst of failed sign-ins alerts the hospital admins by e-mail (the API stack's sender, by its names) and SMS.
   */
  private addSignInCounting(props: AuthStackProps): void {
    const mail = stageMail(props.config);
    const trigger = new ImagingFunction(this, {
      config: props.config,
      declaration: SIGN_IN_EVENTS_DECLARATION,
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      ...mail,
      environment: { ...mail.environment, [ENV.SITE_ORIGIN]: props.siteOrigins[0] ?? '' },
      concurrencyBound:
        'Invoked only by the user pool, twice per sign-in at most; the pool quotas on sign-ins bound its load.',
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_AUTHENTICATION, trigger);
    this.userPool.addTrigger(UserPoolOperation.POST_AUTHENTICATION, trigger);
  }

  /** Federated first sign-ins only for their hospital's e-mail domain (functions/triggers/pre-sign-up.ts). */
  private addFederationTrigger(props: AuthStackProps): void {
    const trigger = new ImagingFunction(this, {
      config: props.config,
      declaration: PRE_SIGN_UP_DECLARATION,
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      concurrencyBound: 'Invoked only by the user pool, once per sign-up; the pool quotas on sign-ups bound its load.',
    });
    this.userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, trigger);

    const placement = new ImagingFunction(this, {
      config: props.config,
      declaration: POST_CONFIRMATION_DECLARATION,
      dataKey: props.dataKey,
      pseudonymSecret: props.pseudonymSecret,
      concurrencyBound: 'Invoked only by the user pool, once per confirmed sign-up; the pool quotas bound its load.',
    });
    this.userPool.addTrigger(UserPoolOperation.POST_CONFIRMATION, placement);
    // As for the pre-token trigger: a policy of its own breaks the pool-function dependency cycle.
    const place = new Policy(this, 'PostConfirmationPlacesUsers', {
      roles: [placement.executionRole],
      statements: [
        new PolicyStatement({
          actions: FEDERATED_PLACEMENT_ACTIONS,
          resources: [this.userPool.userPoolArn],
        }),
      ],
    });
    Validations.of(place).acknowledge({
      id: 'HIPAA.Security-IAMNoInlinePolicy',
      reason:
        "The trigger's pool statement is kept apart from its default policy to break the pool-function dependency cycle.",
    });
  }
}
