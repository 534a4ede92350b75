import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import type { Pseudonymizer } from '#shared/domain/datasets/ports.ts';
import type { PageTokens } from '#shared/domain/ports.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import type { TokenMint } from '#shared/domain/invitations/ports.ts';
import type { ShareCodeHasher } from '#shared/domain/shares/ports.ts';

function derive(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`iws:${purpose}:`).update(secret).digest();
}

/**
 * Continuation tokens: the LastEvaluatedKey encrypted and authenticated with AES-256-GCM, the scope (hospital and
 * query) as additional data. A token from another hospital or another filter fails authentication.
 */
export function createPageTokens(secret: () => Promise<string> | string): PageTokens {
  let key: Promise<Buffer> | undefined;
  const needKey = () => (key ??= Promise.resolve(secret()).then((s) => derive(s, 'page-token')));
  return {
    async seal(scope, lastKey) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await needKey(), iv);
      cipher.setAAD(Buffer.from(scope));
      const body = Buffer.concat([cipher.update(JSON.stringify(lastKey), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    async open(scope, token) {
      const secretKey = await needKey();
      try {
        const raw = Buffer.from(token, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', secretKey, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(scope));
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        const parsed = JSON.parse(text) as unknown;
        if (!parsed || typeof parsed !== 'object') throw new Error('bad token');
        return parsed as Record<string, string>;
      } catch {
        throw new ValidationError('VALIDATION_FAILED', {}, [{ path: 'nextToken', message: 'Invalid input' }]);
      }
    },
  };
}

/** Patient alias: HMAC-SHA256 of the normalised MRN keyed per hospital, shown as `PT-` + 16 hex digits (64 bits: collisions stay negligible at millions of patients). */
export function createPseudonymizer(secret: () => Promise<string>): Pseudonymizer {
  return {
    async patientAlias(hospitalId, mrn) {
      const digest = createHmac('sha256', derive(await secret(), `patient-alias:${hospitalId}`))
        .update(mrn.trim().toUpperCase())
        .digest('hex');
      return `PT-${digest.slice(0, 16).toUpperCase()}`;
    },
  };
}

/** Invitation links: 32 random bytes (base64url, 43 characters); only their SHA-256 (hex) is stored. */
export function createTokenMint(): TokenMint {
  return {
    newToken: () => randomBytes(32).toString('base64url'),
    hash: (token) => createHash('sha256').update(token, 'utf8').digest('hex'),
  };
}

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

/**
 * Patient share codes: scrypt (RFC 7914; N=2^14, r=8, p=1, tens of milliseconds and 16 MiB a try) of the share id and
 * the code under 16 random bytes of salt per code, compared in constant time. Six digits are a million guesses: a
 * stolen share item costs that many scrypt runs, for that share and that code only.
 */
export function createShareCodeHasher(cost = { N: 2 ** 14, r: 8, p: 1 }): ShareCodeHasher {
  const derive = (shareId: string, code: string, salt: string) =>
    scryptAsync(`${shareId}:${code}`, Buffer.from(salt, 'base64url'), 32, { ...cost, maxmem: 64 * 1024 * 1024 });
  return {
    newSalt: () => randomBytes(16).toString('base64url'),
    hash: async (shareId, code, salt) => (await derive(shareId, code, salt)).toString('base64url'),
    async matches(shareId, code, salt, stored) {
      const expected = Buffer.from(stored, 'base64url');
      const actual = await derive(shareId, code, salt);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
