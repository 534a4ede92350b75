/**
 * The site's Content-Security-Policy, from the hosts it really talks to. Chakra (emotion) injects style elements,
 * NiiVue and the DICOM engine run WebAssembly and workers from blobs; everything else the browser reaches is named:
 * the API, the Cognito endpoint, the data buckets of presigned uploads and downloads. Nothing may frame the site.
 * Used by the CloudFront response headers (edge stack), the published index.html (web stack) and the local twin,
 * where all of them are the site's own origin.
 */
export type SiteHosts = {
  /** fetch/XHR targets besides the site: API origin, Cognito endpoint, bucket hosts. */
  connect: readonly string[];
  /** Image sources besides the site: bucket hosts of presigned thumbnails. */
  images: readonly string[];
  /** Form targets besides the site: the Cognito hosted UI, when single sign-on is configured. */
  forms: readonly string[];
};

export function siteContentSecurityPolicy(hosts: SiteHosts, options: { forMetaElement?: boolean } = {}): string {
  const list = (...sources: readonly string[]) => sources.join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list("'self'", 'data:', 'blob:', ...hosts.images)}`,
    `connect-src ${list("'self'", 'blob:', 'data:', ...hosts.connect)}`,
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${list("'self'", ...hosts.forms)}`,
    // A <meta> policy cannot say who may frame the page; the response header does.
    ...(options.forMetaElement ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}

/** The virtual-hosted addresses S3 presigns a bucket's objects at (regional, and the legacy global one). */
export function bucketHosts(bucketName: string, region: string, urlSuffix: string): string[] {
  return [`https://${bucketName}.s3.${region}.${urlSuffix}`, `https://${bucketName}.s3.${urlSuffix}`];
}

/** `<meta http-equiv="Content-Security-Policy">` as the first element of the page's head. */
export function withContentSecurityPolicyMeta(html: string, policy: string): string {
  const escaped = policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escaped}" />`;
  if (!/<head[^>]*>/i.test(html)) throw new Error('index.html has no <head> to put the Content-Security-Policy in');
  return html.replace(/<head[^>]*>/i, (head) => `${head}\n    ${meta}`);
}
