import { createHash, createHmac, timingSafeEqual, type Hash, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { getCanonicalHeaders, getSigningKey, SignatureV4 } from '@smithy/signature-v4';
import type { HeaderBag, HttpRequest, QueryParameterBag, SourceData } from '@smithy/types';

/**
 * AWS Signature Version 4 as S3 checks it, for the twin's object store (s3rver verifies no V4 signature). The
 * canonical request and string to sign are the SDK's own (@smithy/signature-v4), recomputed from what arrived:
 * a presigned URL (X-Amz-* query parameters, payload UNSIGNED-PAYLOAD) or an `Authorization` header (payload hash
 * from `x-amz-content-sha256`). The payload itself is not hashed again: the signature binds the declared hash.
 */
export type Credentials = { accessKeyId: string; secretAccessKey: string };

export type SignatureRefusal = {
  code:
    | 'AccessDenied'
    | 'SignatureDoesNotMatch'
    | 'InvalidAccessKeyId'
    | 'RequestTimeTooSkewed'
    | 'AuthorizationQueryParametersError'
    | 'InvalidArgument';
  message: string;
};

export type ArrivedRequest = {
  method: string;
  /** The request target as sent: path (percent-encoded as the client signed it) and query. */
  url: string;
  headers: IncomingHttpHeaders;
};

const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** S3's limits: a presigned URL lives at most 7 days; a header-signed request may be 15 minutes off the clock. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;
const MAX_SKEW_MS = 15 * 60 * 1000;

class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(toBytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

function toBytes(data: SourceData): Uint8Array | string {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** The SDK's signer, used only for its canonical request and string to sign. */
class SignatureRecomputer extends SignatureV4 {
  constructor(private readonly credentials: Credentials) {
    super({ service: 's3', region: 'us-east-1', credentials, sha256: NodeSha256, uriEscapePath: false });
  }

  async signatureOf(
    request: HttpRequest,
    canonicalHeaders: HeaderBag,
    payloadHash: string,
    longDate: string,
    scope: string,
  ): Promise<string> {
    const [shortDate = '', region = '', service = ''] = scope.split('/');
    const canonical = this.createCanonicalRequest(request, canonicalHeaders, payloadHash);
    const stringToSign = await this.createStringToSign(longDate, scope, canonical, ALGORITHM);
    const key = await getSigningKey(NodeSha256, this.credentials, shortDate, region, service);
    const hmac = new NodeSha256(key);
    hmac.update(stringToSign);
    return Buffer.from(await hmac.digest()).toString('hex');
  }
}

function decode(component: string): string {
  return decodeURIComponent(component.replace(/\+/g, '%20'));
}

/** Query parameters decoded as the signer saw them before encoding (repeated names become lists). */
function parseQuery(search: string): QueryParameterBag {
  const query: QueryParameterBag = {};
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const name = decode(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decode(pair.slice(at + 1));
    const existing = query[name];
    if (typeof existing === 'string') query[name] = [existing, value];
    else if (Array.isArray(existing)) query[name] = [...existing.filter((v): v is string => v !== null), value];
    else query[name] = value;
  }
  return query;
}

function single(query: QueryParameterBag, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

/** `20240102T030405Z` → epoch milliseconds, or NaN. */
function parseAmzDate(value: string | undefined): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

function sameSignature(expected: string, provided: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(provided);
  return a.length === b.length && timingSafeEqual(a, b);
}

const refuse = (code: SignatureRefusal['code'], message: string): SignatureRefusal => ({ code, message });

/**
 * Checks one request against the twin's credentials. Undefined when it is signed by them and still valid; otherwise
 * the refusal S3 gives (403 for all but a malformed query, which S3 answers 400).
 */
export async function checkSignature(
  arrived: ArrivedRequest,
  credentials: Credentials,
  now: number = Date.now(),
): Promise<SignatureRefusal | undefined> {
  const at = arrived.url.indexOf('?');
  const path = at < 0 ? arrived.url : arrived.url.slice(0, at);
  let query: QueryParameterBag;
  try {
    query = parseQuery(at < 0 ? '' : arrived.url.slice(at + 1));
  } catch {
    return refuse('InvalidArgument', 'The query string is not valid percent-encoding.');
  }
  const authorization = arrived.headers.authorization;
  const presigned = single(query, 'X-Amz-Algorithm') !== undefined;
  if (presigned && authorization !== undefined) return refuse('InvalidArgument', 'Only one auth mechanism allowed.');

  let credential: string;
  let signedHeaders: string;
  let provided: string;
  let longDate: string | undefined;
  let payloadHash: string;
  if (presigned) {
    if (single(query, 'X-Amz-Algorithm') !== ALGORITHM)
      return refuse('AuthorizationQueryParametersError', `X-Amz-Algorithm only supports "${ALGORITHM}".`);
    credential = single(query, 'X-Amz-Credential') ?? '';
    signedHeaders = single(query, 'X-Amz-SignedHeaders') ?? '';
    provided = single(query, 'X-Amz-Signature') ?? '';
    longDate = single(query, 'X-Amz-Date');
    payloadHash = UNSIGNED_PAYLOAD;
    const expires = Number(single(query, 'X-Amz-Expires'));
    const signedAt = parseAmzDate(longDate);
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_SECONDS || Number.isNaN(signedAt))
      return refuse(
        'AuthorizationQueryParametersError',
        'X-Amz-Date and X-Amz-Expires must be present; X-Amz-Expires between 1 and 604800 seconds.',
      );
    if (now > signedAt + expires * 1000) return refuse('AccessDenied', 'Request has expired');
    if (signedAt - now > MAX_SKEW_MS) return refuse('AccessDenied', 'Request is not valid yet');
  } else if (typeof authorization === 'string') {
    const match = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(
      authorization.trim(),
    );
    if (!match) return refuse('AccessDenied', 'The authorization header is malformed.');
    [, credential = '', signedHeaders = '', provided = ''] = match;
    const date = arrived.headers['x-amz-date'];
    longDate = typeof date === 'string' ? date : undefined;
    const hash = arrived.headers['x-amz-content-sha256'];
    if (typeof hash !== 'string')
      return refuse('InvalidArgument', 'Missing required header for this request: x-amz-content-sha256');
    payloadHash = hash;
    const signedAt = parseAmzDate(longDate);
    if (Number.isNaN(signedAt))
      return refuse('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
    if (Math.abs(now - signedAt) > MAX_SKEW_MS)
      return refuse(
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
  } else {
    return refuse('AccessDenied', 'Access Denied');
  }

  const [accessKeyId, ...scopeParts] = credential.split('/');
  const scope = scopeParts.join('/');
  if (accessKeyId !== credentials.accessKeyId)
    return refuse('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (scopeParts.length !== 4 || scopeParts[0] !== longDate?.slice(0, 8) || scopeParts[3] !== 'aws4_request')
    return refuse('AuthorizationQueryParametersError', 'The credential scope is malformed.');

  const names = signedHeaders.split(';');
  if (!names.includes('host')) return refuse('AccessDenied', 'The host header must be signed.');
  const headers: HeaderBag = {};
  for (const name of names) {
    const value = arrived.headers[name];
    if (value === undefined) return refuse('SignatureDoesNotMatch', `Signed header ${name} is missing.`);
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const canonicalHeaders = getCanonicalHeaders({ headers } as HttpRequest, undefined, new Set(names));
  if (Object.keys(canonicalHeaders).sort().join(';') !== signedHeaders)
    return refuse('SignatureDoesNotMatch', 'SignedHeaders must be the sorted, lower-case header names.');

  const request = { method: arrived.method, protocol: 'http:', hostname: '', path, query, headers } as HttpRequest;
  const expected = await new SignatureRecomputer(credentials).signatureOf(
    request,
    canonicalHeaders,
    payloadHash,
    longDate ?? '',
    scope,
  );
  if (!sameSignature(expected, provided))
    return refuse(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  return undefined;
}
