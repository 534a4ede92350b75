import crypto from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import S3rver from 's3rver';
import { ensureDir, persistedSecret, randomSecret } from './data-dir.ts';
import { checkSignature, type Credentials } from './sigv4.ts';

/**
 * S3 stand-in: s3rver (objects on disk under <data>/s3), called in-process behind the twin's public port at
 * /_aws/s3. s3rver lacks ListParts and AbortMultipartUpload, which resumable uploads need: answered here from
 * s3rver's own multipart folders. s3rver checks no V4 signature and answers CORS with `*`, so the twin does both
 * itself before a request reaches it: every request must carry a valid SigV4 signature of the data folder's own
 * key pair (presigned URL or Authorization header, unexpired), browsers get CORS for the twin's origins only, and
 * keys with `.` or `..` segments, which s3rver would join into a path outside its folder, are refused.
 */
const METHODS = 'GET, PUT, POST, HEAD, DELETE';
const MAX_AGE_SECONDS = '3000';

function corsXml(origins: readonly string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${escapeXml(origin)}</AllowedOrigin>`).join('');
  return `<CORSConfiguration><CORSRule>${allowed}
<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod>
<AllowedMethod>HEAD</AllowedMethod><AllowedMethod>DELETE</AllowedMethod>
<AllowedHeader>*</AllowedHeader>
<ExposeHeader>ETag</ExposeHeader>
<MaxAgeSeconds>${MAX_AGE_SECONDS}</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;
}

export type S3Options = {
  /** The key pair the twin's handlers sign with (objectStoreCredentials); nothing else is accepted. */
  credentials: Credentials;
  /** Origins a browser may call the store from: the twin's own (`http://<allowed host>`). */
  origins: readonly string[];
  /**
   * Buckets with S3 Object Lock and their default retention in days (the audit digests' bucket): an object is kept
   * until its retain-until date, so a delete before it is refused (403 AccessDenied, as S3 answers a delete of a
   * locked version) and so is a put that would replace it; a put with `If-None-Match: *` on a key that exists
   * answers 412 PreconditionFailed, as S3's conditional writes do.
   */
  objectLock?: Record<string, { retentionDays: number }>;
};

export type S3Service = {
  handle(req: IncomingMessage, res: ServerResponse, path: string): void;
  close(): Promise<void>;
};

/**
 * The object store's key pair, made once per data folder (mode 600). s3rver's built-in pair (S3RVER/S3RVER) is
 * published with it: a signature check with that pair would let anyone sign.
 */
export function objectStoreCredentials(dataDir: string): Credentials {
  const { value } = persistedSecret(dataDir, 's3-credentials.json', () =>
    JSON.stringify({
      accessKeyId: `IWSLOCAL${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
      secretAccessKey: randomSecret(30),
    }),
  );
  return JSON.parse(value) as Credentials;
}

/** s3rver looks the access key id up in its account registry before anything else: register the data folder's. */
function registerWithS3rver(credentials: Credentials): void {
  const require = createRequire(import.meta.url);
  const account = require('s3rver/lib/models/account') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  };
  account.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
}

/**
 * The bucket and key segments of an object path, or undefined when one is `.` or `..` (also percent-encoded, or
 * behind an encoded `/`) or not valid percent-encoding: s3rver would resolve such a key outside its folder.
 */
export function safePathSegments(pathname: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of pathname.split('/').slice(1)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    for (const part of decoded.split(/[/\\]/)) if (part === '.' || part === '..') return undefined;
    segments.push(decoded);
  }
  return segments;
}

/**
 * s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 only has with --openssl-legacy-provider
 * (`npm start` passes it). Where DES is missing (e.g. inside a test runner) an identity "cipher" is used for that
 * one algorithm: the tokens stay opaque base64 and round-trip, and nothing else in the process uses DES.
 */
function ensureContinuationTokensWork(): void {
  try {
    crypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
    return;
  } catch {
    /* DES not available: install the shim below */
  }
  const original = { cipher: crypto.createCipheriv, decipher: crypto.createDecipheriv };
  const identity = () => ({ update: (data: string | Buffer) => Buffer.from(data), final: () => Buffer.alloc(0) });
  const patched = crypto as unknown as Record<string, unknown>;
  patched.createCipheriv = (algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des' ? identity() : (original.cipher as (...a: unknown[]) => unknown)(algorithm, ...rest);
  patched.createDecipheriv = (algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des' ? identity() : (original.decipher as (...a: unknown[]) => unknown)(algorithm, ...rest);
}

function xml(res: ServerResponse, status: number, body: string, origin?: string): void {
  res.writeHead(status, { 'content-type': 'application/xml', ...corsHeaders(origin) });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin
    ? { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'ETag', vary: 'Origin' }
    : {};
}

/** An error as S3 shapes it. */
function s3Error(res: ServerResponse, status: number, code: string, message: string, origin?: string): void {
  const requestId = crypto.randomBytes(8).toString('hex').toUpperCase();
  xml(
    res,
    status,
    `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>${requestId}</RequestId></Error>`,
    origin,
  );
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The retain-until date of each object of the Object Lock buckets, kept beside s3rver's files (`s3-object-lock.json`):
 * every write to those buckets passes through the twin, which records the date when a put succeeds.
 */
function objectLockRegistry(dataDir: string, buckets: Record<string, { retentionDays: number }>) {
  const file = join(dataDir, 's3-object-lock.json');
  let retained: Record<string, Record<string, string>> = {};
  try {
    retained = JSON.parse(readFileSync(file, 'utf8')) as typeof retained;
  } catch {
    retained = {};
  }
  const save = () => writeFileSync(file, JSON.stringify(retained), { mode: 0o600 });
  return {
    bucket(name: string) {
      const config = buckets[name];
      if (!config) return undefined;
      const objects = (retained[name] ??= {});
      return {
        refusal(key: string, method: 'PUT' | 'DELETE', ifNoneMatch: string | undefined) {
          const until = objects[key];
          if (until === undefined) return undefined;
          if (method === 'PUT' && ifNoneMatch === '*')
            return {
              status: 412,
              code: 'PreconditionFailed',
              message: 'At least one of the pre-conditions you specified did not hold',
            };
          if (Date.parse(until) > Date.now())
            return { status: 403, code: 'AccessDenied', message: `Object Lock: the object is retained until ${until}` };
          return undefined;
        },
        written(key: string, method: string) {
          if (method === 'DELETE') delete objects[key];
          else objects[key] = new Date(Date.now() + config.retentionDays * 86_400_000).toISOString();
          save();
        },
      };
    },
  };
}

export async function startS3(dataDir: string, buckets: string[], options: S3Options): Promise<S3Service> {
  ensureContinuationTokensWork();
  registerWithS3rver(options.credentials);
  const directory = ensureDir(join(dataDir, 's3'));
  const origins = new Set(options.origins);
  const s3rver = new S3rver({
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name, configs: [corsXml(options.origins)] })),
  });
  await s3rver.configureBuckets();
  const callback = s3rver.callback();

  const locks = objectLockRegistry(dataDir, options.objectLock ?? {});

  const uploadDir = (bucket: string, uploadId: string) => join(directory, bucket, '._S3rver_uploads', uploadId);

  async function listParts(res: ServerResponse, bucket: string, key: string, uploadId: string): Promise<void> {
    const dir = uploadDir(bucket, uploadId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      xml(
        res,
        404,
        `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${escapeXml(uploadId)}</UploadId></Error>`,
      );
      return;
    }
    const numbers = names
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => a - b);
    const parts: string[] = [];
    for (const n of numbers) {
      const md5 = await readFile(join(dir, `${n}.md5`), 'utf8').catch(() => undefined);
      if (!md5) continue; // a part still being written has no checksum yet
      const info = await stat(join(dir, String(n)));
      parts.push(
        `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5.trim()}"</ETag><Size>${info.size}</Size></Part>`,
      );
    }
    xml(
      res,
      200,
      `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${escapeXml(uploadId)}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  }

  /** CORS preflight, answered here: s3rver's always allows `*`. */
  function preflight(req: IncomingMessage, res: ServerResponse, origin: string | undefined): void {
    req.resume();
    const method = req.headers['access-control-request-method'];
    if (!origin || !method) {
      s3Error(res, 400, 'BadRequest', 'Insufficient information. Origin request header needed.');
      return;
    }
    if (!origins.has(origin) || !METHODS.split(', ').includes(method)) {
      s3Error(res, 403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
      return;
    }
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(200, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': METHODS,
      ...(requested ? { 'access-control-allow-headers': requested } : {}),
      'access-control-expose-headers': 'ETag',
      'access-control-max-age': MAX_AGE_SECONDS,
      vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS') return preflight(req, res, origin);
    if (origin !== undefined && !origins.has(origin)) {
      req.resume();
      return s3Error(res, 403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
    }
    // Not through URL(), which would resolve the very `..` segments to look for.
    const segments = safePathSegments(path.split('?')[0] ?? '');
    const [bucket = '', ...keyParts] = segments ?? [];
    const key = keyParts.join('/');
    const inside = (target: string) => target === directory || target.startsWith(directory + sep);
    if (!segments || !inside(resolve(directory, bucket, key))) {
      req.resume();
      return s3Error(res, 400, 'InvalidArgument', 'Object keys may not contain "." or ".." segments.', origin);
    }
    // The signature covers the path as the client sent it, prefix included.
    const refusal = await checkSignature(
      { method: req.method ?? 'GET', url: req.url ?? path, headers: req.headers },
      options.credentials,
    );
    if (refusal) {
      req.resume();
      const status =
        refusal.code === 'InvalidArgument' || refusal.code === 'AuthorizationQueryParametersError' ? 400 : 403;
      return s3Error(res, status, refusal.code, refusal.message, origin);
    }
    const uploadId = new URL(path, 'http://local').searchParams.get('uploadId');
    if (uploadId && bucket && key && (req.method === 'GET' || req.method === 'DELETE')) {
      if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) {
        req.resume();
        return s3Error(res, 400, 'InvalidArgument', 'Invalid uploadId', origin);
      }
      req.resume();
      if (req.method === 'GET') return listParts(res, bucket, key, uploadId);
      await rm(uploadDir(bucket, uploadId), { recursive: true, force: true });
      res.writeHead(204, corsHeaders(origin));
      res.end();
      return;
    }
    const lock = locks.bucket(bucket);
    if (lock && key && (req.method === 'PUT' || req.method === 'DELETE') && !uploadId) {
      const refusal = lock.refusal(key, req.method, req.headers['if-none-match']);
      if (refusal) {
        req.resume();
        return s3Error(res, refusal.status, refusal.code, refusal.message, origin);
      }
      const method = req.method;
      res.once('finish', () => {
        if (res.statusCode < 300) lock.written(key, method);
      });
    }
    req.url = path;
    await callback(req, res);
  }

  return {
    handle(req, res, path) {
      handle(req, res, path).catch(() => {
        if (!res.headersSent) s3Error(res, 500, 'InternalError', 'We encountered an internal error. Please try again.');
        else res.end();
      });
    },
    async close() {
      // s3rver holds no open handles when not listening; its logger is the only resource.
      (s3rver as unknown as { logger?: { close?: () => void } }).logger?.close?.();
    },
  };
}
