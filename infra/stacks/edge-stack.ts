import { Aws, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ObjectOwnership, type Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { StageConfig } from '#infra/config.ts';
import { createPrivateBucket } from '#infra/constructs/private-bucket.ts';
import { resourceNames } from '#infra/resource-names.ts';
import { bucketHosts, siteContentSecurityPolicy, type SiteHosts } from '#infra/site-csp.ts';

/**
 * The hosts the site reaches in this stage: the Cognito endpoint of the region (and its hosted UI with single
 * sign-on), the upload and asset buckets by name (presigned part uploads, presigned asset downloads) and the
 * region's API Gateway. The API's own id is created after this stack (its CORS needs the site's origin), so the
 * header names the region's execute-api hosts and the published index.html pins the API origin exactly
 * (web-stack.ts); a browser enforces both policies.
 */
export function siteHosts(config: StageConfig, api: string): SiteHosts {
  const { buckets } = resourceNames(config);
  const region = Aws.REGION;
  const suffix = Aws.URL_SUFFIX;
  const hostedUi = config.authDomainPrefix
    ? [`https://${config.authDomainPrefix}.auth.${region}.amazoncognito.com`]
    : [];
  const uploads = bucketHosts(buckets.uploads, region, suffix);
  const assets = bucketHosts(buckets.assets, region, suffix);
  return {
    connect: [api, `https://cognito-idp.${region}.${suffix}`, ...hostedUi, ...uploads, ...assets],
    images: assets,
    forms: hostedUi,
  };
}

/** The header policy: the API as any REST API of the region, until the web stack pins it in index.html. */
export function siteHeaderPolicy(config: StageConfig): string {
  return siteContentSecurityPolicy(siteHosts(config, `https://*.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`));
}

export type EdgeStackProps = StackProps & { config: StageConfig };

/**
 * Where the site is served from: a private bucket behind CloudFront (origin access control) with strict
 * security headers. It comes first because the site's origin is what the upload bucket's CORS and the API
 * allow; the site files and config.json are published into the bucket by the web stack, last.
 */
export class EdgeStack extends Stack {
  readonly siteBucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`: the origin the browser runs the site on. */
  readonly siteOrigin: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    const siteLogs = createPrivateBucket(this, 'SiteLogsBucket', {
      bucketName: names.siteLogsBucket,
      removalPolicy: config.dataRemovalPolicy,
      versioned: false,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(config.isProduction ? 2190 : 90) }],
    });
    Validations.of(siteLogs).acknowledge(
      {
        id: 'AwsSolutions-S1',
        reason: 'This is the log bucket of the site and of CloudFront; logging it into itself would loop.',
      },
      {
        id: 'HIPAA.Security-S3BucketLoggingEnabled',
        reason: 'This is the log bucket of the site and of CloudFront; logging it into itself would loop.',
      },
      {
        id: 'HIPAA.Security-S3DefaultEncryptionKMS',
        reason:
          'S3 server access logging and CloudFront standard logging cannot deliver to SSE-KMS buckets; SSE-S3 is used.',
      },
      {
        id: 'HIPAA.Security-S3BucketVersioningEnabled',
        reason: 'Access logs are append-only delivery targets that expire by lifecycle; versions add nothing.',
      },
      { id: 'HIPAA.Security-S3BucketReplicationEnabled', reason: 'Access logs are not replicated across regions.' },
    );

    this.siteBucket = createPrivateBucket(this, 'SiteBucket', {
      bucketName: names.siteBucket,
      // The site is rebuilt from the repository; it holds no data worth keeping.
      removalPolicy: config.dataRemovalPolicy,
      versioned: true,
      accessLogs: { bucket: siteLogs, prefix: 'site-bucket/' },
      lifecycleRules: [{ id: 'expire-noncurrent-versions', noncurrentVersionExpiration: Duration.days(30) }],
    });
    Validations.of(this.siteBucket).acknowledge(
      {
        id: 'HIPAA.Security-S3DefaultEncryptionKMS',
        reason:
          'The site bucket holds the public static build and config.json (no PHI); SSE-S3 keeps CloudFront origin access simple.',
      },
      {
        id: 'HIPAA.Security-S3BucketReplicationEnabled',
        reason: 'The static site is rebuilt from source; replication would add nothing.',
      },
    );

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: `${config.prefix}-security-headers`,
      comment: 'HSTS, CSP, frame, content-type and referrer protections for the Imaging Workspace site',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: siteHeaderPolicy(config), override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        contentTypeOptions: { override: true },
        // Presigned URLs and dataset ids must not leak to other sites through the Referer header.
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        xssProtection: { protection: true, modeBlock: true, override: true },
      },
    });

    // One origin object for both behaviours: one origin, one origin access control.
    const siteOrigin = S3BucketOrigin.withOriginAccessControl(this.siteBucket);
    this.distribution = new Distribution(this, 'SiteDistribution', {
      comment: `Imaging Workspace site (${config.stage})`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: siteOrigin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
      },
      additionalBehaviors: {
        // Runtime settings change with every deployment: never cache them.
        '/config.json': {
          origin: siteOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          responseHeadersPolicy: headers,
        },
      },
      // Client-side routes (/datasets/123) are served by index.html.
      errorResponses: [
        { httpStatus: 403, responseHttpStatus: 200, responsePagePath: '/index.html', ttl: Duration.seconds(0) },
        { httpStatus: 404, responseHttpStatus: 200, responsePagePath: '/index.html', ttl: Duration.seconds(0) },
      ],
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: siteLogs,
      logFilePrefix: 'cloudfront/',
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'Hospitals sign in from many countries (visiting staff, teleradiology); access is controlled by Cognito, not geography.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves only the static site (GET/HEAD); the API, which handles data, has its own regional WAF. A CloudFront WAF must live in us-east-1 and is added per account.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain CloudFront serves the default *.cloudfront.net certificate, whose viewer policy cannot be raised; minimumProtocolVersion TLSv1.2_2021 applies as soon as a custom domain is attached.',
      },
    );
    this.siteOrigin = `https://${this.distribution.distributionDomainName}`;
  }
}
