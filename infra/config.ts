import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { z } from 'zod';

/**
 * Per-environment settings of the CDK app. The stage comes from context (`cdk.json` says "dev";
 * `-c stage=staging` picks another); everything else is derived from it so that dev, staging and prod
 * differ only where this file says they do.
 */
export const STAGES = ['dev', 'staging', 'prod'] as const;
export type Stage = (typeof STAGES)[number];

export type StageConfig = {
  stage: Stage;
  /** Prefix of every stack and named resource: `imaging-<stage>`. */
  prefix: string;
  isProduction: boolean;
  /** Medical data and its audit trail survive a stack deletion everywhere but dev. */
  dataRemovalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Raw (identifiable) uploads are de-identified within minutes; anything left expires after this. */
  rawUploadExpiryDays: number;
  /** Incomplete multipart uploads (abandoned browser sessions) are aborted after this. */
  abortMultipartAfterDays: number;
  /** Noncurrent versions of de-identified data are kept this long for recovery, then removed. */
  noncurrentVersionDays: number;
  /** Cognito threat protection (feature plan PLUS) costs per user; on in production. */
  threatProtection: boolean;
  mfa: 'OPTIONAL' | 'REQUIRED';
  /** Extra origins allowed to call the API and upload (e.g. a custom site domain); the CloudFront origin is always allowed. */
  extraSiteOrigins: string[];
  /**
   * Cognito hosted-login domain prefix. With it, hospitals may connect their own OIDC providers at run time (docs/sso.md);
   * without it, single sign-on is off and every user signs in with a password.
   */
  authDomainPrefix?: string;
  /**
   * Sender of the product's e-mail (context "mailFrom"), on a domain verified in SES; the stack declares that domain's
   * identity. Without it invitations are stored but their e-mail is not sent (docs/deployment.md#e-mail).
   */
  mailFrom?: string;
  /**
   * Networks the hospitals' DICOM nodes send C-STORE from (context "dicomSourceCidrs", a JSON list of IPv4 CIDR blocks):
   * the DICOM listener's load balancer admits only these (docs/dicom-intake.md#dicom-nodes). None by default.
   */
  dicomSourceCidrs: string[];
};

const STAGE_DEFAULTS: Record<
  Stage,
  Omit<StageConfig, 'stage' | 'prefix' | 'extraSiteOrigins' | 'authDomainPrefix' | 'mailFrom' | 'dicomSourceCidrs'>
> = {
  dev: {
    isProduction: false,
    dataRemovalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.ONE_MONTH,
    rawUploadExpiryDays: 2,
    abortMultipartAfterDays: 1,
    noncurrentVersionDays: 7,
    threatProtection: false,
    mfa: 'OPTIONAL',
  },
  staging: {
    isProduction: false,
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.THREE_MONTHS,
    rawUploadExpiryDays: 2,
    abortMultipartAfterDays: 1,
    noncurrentVersionDays: 30,
    threatProtection: false,
    mfa: 'OPTIONAL',
  },
  prod: {
    isProduction: true,
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    // HIPAA 45 CFR 164.316(b)(2): keep security documentation six years.
    logRetention: RetentionDays.SIX_YEARS,
    rawUploadExpiryDays: 2,
    abortMultipartAfterDays: 1,
    noncurrentVersionDays: 90,
    threatProtection: true,
    mfa: 'OPTIONAL',
  },
};

export function isStage(value: unknown): value is Stage {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

/** The stage named by context; throws on anything but dev, staging or prod so a typo never deploys. */
export function getStageFromContext(node: Node): Stage {
  const value: unknown = node.tryGetContext('stage');
  if (!isStage(value)) {
    throw new Error(`Unknown stage "${String(value)}": pass -c stage=${STAGES.join('|')}`);
  }
  return value;
}

/** Context values arrive as JSON from cdk.json and as plain strings from `-c key=value`. */
function readJsonContext(node: Node, key: string): unknown {
  const value: unknown = node.tryGetContext(key);
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`Context "${key}" must be JSON`);
  }
}

export function loadStageConfig(node: Node): StageConfig {
  const stage = getStageFromContext(node);
  if (node.tryGetContext('identityProviders') !== undefined) {
    throw new Error(
      'Context "identityProviders" is retired: hospital admins connect their identity providers on the SSO tab (docs/sso.md)',
    );
  }
  const origins = z.array(z.url()).safeParse(readJsonContext(node, 'siteOrigins') ?? []);
  if (!origins.success)
    throw new Error(`Context "siteOrigins" must be a list of origins: ${z.prettifyError(origins.error)}`);
  const authDomainPrefix: unknown = node.tryGetContext('authDomainPrefix');
  const cidrs = z
    .array(z.string().regex(/^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/, 'an IPv4 CIDR block such as 10.20.0.0/16'))
    .safeParse(readJsonContext(node, 'dicomSourceCidrs') ?? []);
  if (!cidrs.success)
    throw new Error(`Context "dicomSourceCidrs" must be a list of CIDR blocks: ${z.prettifyError(cidrs.error)}`);
  const mfa: unknown = node.tryGetContext('mfa');
  const mailFrom: unknown = node.tryGetContext('mailFrom');
  if (mailFrom !== undefined && !z.email().safeParse(mailFrom).success)
    throw new Error('Context "mailFrom" must be an e-mail address on a domain verified in SES');
  return {
    ...STAGE_DEFAULTS[stage],
    ...(mfa === 'REQUIRED' || mfa === 'OPTIONAL' ? { mfa } : {}),
    stage,
    prefix: `imaging-${stage}`,
    extraSiteOrigins: origins.data.map((o) => o.replace(/\/+$/, '')),
    dicomSourceCidrs: cidrs.data,
    ...(typeof authDomainPrefix === 'string' ? { authDomainPrefix } : {}),
    ...(typeof mailFrom === 'string' ? { mailFrom } : {}),
  };
}
