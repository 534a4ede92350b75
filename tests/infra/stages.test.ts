import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { getStageFromContext, loadStageConfig, STAGES } from '#infra/config.ts';
import { synthImagingApp, type SynthesizedApp } from './synth.ts';

const SAML = {
  hospitalId: 'northside',
  domain: 'northside.example.org',
  type: 'SAML',
  metadataUrl: 'https://idp.northside.example.org/metadata.xml',
};
const OIDC = {
  hospitalId: 'lakeview',
  domain: 'lakeview.example.org',
  type: 'OIDC',
  issuer: 'https://login.lakeview.example.org',
  clientId: 'imaging-workspace',
  clientSecretArn: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:lakeview-oidc-AbCdEf',
};

function contextNode(context: Record<string, unknown>) {
  return new App({ context }).node;
}

describe('stage from context', () => {
  it.each(STAGES)('accepts %s', (stage) => {
    // Act + Assess
    expect(getStageFromContext(contextNode({ stage }))).toBe(stage);
  });

  it.each([['qa'], ['PROD'], [undefined]])('throws on stage %s', (stage) => {
    // Act + Assess
    expect(() => getStageFromContext(contextNode(stage === undefined ? {} : { stage }))).toThrow(/Unknown stage/);
  });

  it('rejects an identity provider without its metadata, and SSO without a hosted-UI domain prefix', () => {
    // Act + Assess
    expect(() =>
      loadStageConfig(
        contextNode({ stage: 'dev', identityProviders: [{ ...SAML, metadataUrl: undefined }], authDomainPrefix: 'x' }),
      ),
    ).toThrow(/identityProviders/);
    expect(() => loadStageConfig(contextNode({ stage: 'dev', identityProviders: [SAML] }))).toThrow(/authDomainPrefix/);
    expect(() =>
      loadStageConfig(
        contextNode({
          stage: 'dev',
          identityProviders: [SAML, { ...OIDC, domain: SAML.domain }],
          authDomainPrefix: 'x',
        }),
      ),
    ).toThrow(/configured twice/);
  });

  it('reads identity providers given as a JSON string on the command line (-c identityProviders=...)', () => {
    // Act
    const config = loadStageConfig(
      contextNode({
        stage: 'staging',
        identityProviders: JSON.stringify([OIDC]),
        authDomainPrefix: 'imaging-staging-sso',
      }),
    );

    // Assess
    expect(config.identityProviders).toEqual([{ ...OIDC, scopes: ['openid', 'email', 'profile'] }]);
  });
});

describe('prod stage with SSO providers', () => {
  let built: SynthesizedApp;
  let storage: Template;
  let auth: Template;

  beforeAll(() => {
    // Prepare: one synthesis of prod with one SAML and one OIDC hospital.
    built = synthImagingApp({
      stage: 'prod',
      identityProviders: [SAML, OIDC],
      authDomainPrefix: 'imaging-prod-sso',
      siteOrigins: ['https://imaging.example.org'],
    });
    storage = built.template(built.storage);
    auth = built.template(built.auth);
  });

  it('retains the table, buckets, key and secret, and protects the table and user pool from deletion', () => {
    // Assess
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::KMS::Key', 'AWS::SecretsManager::Secret']) {
      const found = Object.values(storage.findResources(type));
      expect(found.length, type).toBeGreaterThan(0);
      for (const resource of found) expect(resource.DeletionPolicy, type).toBe('Retain');
    }
    storage.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
    auth.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'ACTIVE', UserPoolTier: 'PLUS' });
  });

  it('keeps logs six years in prod', () => {
    // Assess
    for (const stack of [built.pipeline, built.api]) {
      const groups = Object.values(built.template(stack).findResources('AWS::Logs::LogGroup'));
      expect(groups.length).toBeGreaterThan(0);
      for (const group of groups) expect(group.Properties.RetentionInDays).toBe(2192);
    }
  });

  it('creates one identity provider per hospital domain and offers them on the site client', () => {
    // Assess
    auth.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'saml-northside',
      ProviderType: 'SAML',
      IdpIdentifiers: ['northside.example.org'],
      ProviderDetails: Match.objectLike({ MetadataURL: SAML.metadataUrl }),
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'oidc-lakeview',
      ProviderType: 'OIDC',
      IdpIdentifiers: ['lakeview.example.org'],
      ProviderDetails: Match.objectLike({
        oidc_issuer: OIDC.issuer,
        client_id: OIDC.clientId,
        client_secret: `{{resolve:secretsmanager:${OIDC.clientSecretArn}:SecretString:::}}`,
      }),
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'imaging-prod-sso' });
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: [
        'COGNITO',
        { Ref: Match.stringLikeRegexp('^Samlnorthside') },
        { Ref: Match.stringLikeRegexp('^Oidclakeview') },
      ],
      AllowedOAuthFlows: ['code'],
      CallbackURLs: Match.arrayWith(['https://imaging.example.org/']),
    });
  });

  it('allows the custom site origin for uploads next to the CloudFront origin', () => {
    // Assess
    const uploads = Object.entries(storage.findResources('AWS::S3::Bucket')).find(([id]) =>
      id.startsWith('UploadsBucket'),
    )![1];
    const origins = uploads.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins;
    expect(origins[0]).toBe('https://imaging.example.org');
    expect(origins).toHaveLength(2);
  });
});
