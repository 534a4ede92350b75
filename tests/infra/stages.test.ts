import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { getStageFromContext, loadStageConfig, STAGES } from '#infra/config.ts';
import { synthImagingApp, type SynthesizedApp } from './synth.ts';

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

  it('refuses per-hospital identity providers in context: hospital admins connect them on the SSO tab', () => {
    // Act + Assess
    expect(() =>
      loadStageConfig(contextNode({ stage: 'dev', identityProviders: [{ hospitalId: 'h', domain: 'h.example.org' }] })),
    ).toThrow(/SSO tab/);
    expect(loadStageConfig(contextNode({ stage: 'dev', authDomainPrefix: 'x' })).authDomainPrefix).toBe('x');
  });
});

describe('prod stage with single sign-on', () => {
  let built: SynthesizedApp;
  let storage: Template;
  let auth: Template;

  beforeAll(() => {
    // Prepare: one synthesis of prod with a hosted-login domain (hospitals connect their providers at run time).
    built = synthImagingApp({
      stage: 'prod',
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

  it('creates no identity provider itself and gives the site client the hosted login with the code flow', () => {
    // Assess: the providers are the settings function's (docs/sso.md#in-the-cloud), none is in the template.
    expect(Object.keys(auth.findResources('AWS::Cognito::UserPoolIdentityProvider'))).toHaveLength(0);
    auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'imaging-prod-sso' });
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: ['COGNITO'],
      AllowedOAuthFlows: ['code'],
      CallbackURLs: Match.arrayWith(['https://imaging.example.org/']),
      WriteAttributes: Match.arrayWith(['custom:idpAmr', 'custom:idpGroups']),
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
