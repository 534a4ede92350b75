import crypto from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import S3rver from 's3rver';
import { ensureDir } from './data-dir.ts';

/**
 * S3 stand-in: s3rver (objects on disk under <data>/s3), called in-process behind the twin's public port at
 * /_aws/s3. s3rver lacks ListParts and AbortMultipartUpload, which resumable uploads need: answered here from
 * s3rver's own multipart folders. It checks no signatures, which is what lets presigned URLs go through a path prefix.
 */
const CORS_XML = `<CORSConfiguration><CORSRule>
<AllowedOrigin>*</AllowedOrigin>
<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod>
<AllowedMethod>HEAD</AllowedMethod><AllowedMethod>DELETE</AllowedMethod>
<AllowedHeader>*</AllowedHeader>
<ExposeHeader>ETag</ExposeHeader>
<MaxAgeSeconds>3000</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

export type S3Service = {
  handle(req: IncomingMessage, res: ServerResponse, path: string): void;
  close(): Promise<void>;
};

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

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'application/xml',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag',
  });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startS3(dataDir: string, buckets: string[]): Promise<S3Service> {
  ensureContinuationTokensWork();
  const directory = ensureDir(join(dataDir, 's3'));
  const s3rver = new S3rver({
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name, configs: [CORS_XML] })),
  });
  await s3rver.configureBuckets();
  const callback = s3rver.callback();

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

  return {
    handle(req, res, path) {
      const url = new URL(path, 'http://local');
      const uploadId = url.searchParams.get('uploadId');
      const [, bucket = '', ...keyParts] = url.pathname.split('/');
      const key = decodeURIComponent(keyParts.join('/'));
      if (uploadId && bucket && key && (req.method === 'GET' || req.method === 'DELETE')) {
        if (!/^[A-Za-z0-9._-]+$/.test(uploadId)) {
          xml(res, 400, '<Error><Code>InvalidArgument</Code><Message>Invalid uploadId</Message></Error>');
          return;
        }
        req.resume();
        if (req.method === 'GET') {
          listParts(res, bucket, key, uploadId).catch(() => xml(res, 500, '<Error><Code>InternalError</Code></Error>'));
        } else {
          rm(uploadDir(bucket, uploadId), { recursive: true, force: true }).then(
            () => {
              res.writeHead(204, { 'access-control-allow-origin': '*' });
              res.end();
            },
            () => xml(res, 500, '<Error><Code>InternalError</Code></Error>'),
          );
        }
        return;
      }
      req.url = path;
      void callback(req, res);
    },
    async close() {
      // s3rver holds no open handles when not listening; its logger is the only resource.
      (s3rver as unknown as { logger?: { close?: () => void } }).logger?.close?.();
    },
  };
}
