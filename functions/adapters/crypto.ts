import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { PageTokens, Pseudonymizer } from '../../shared/domain/datasets/ports.ts';
import { ValidationError } from '../../shared/domain/errors.ts';

function derive(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`iws:${purpose}:`).update(secret).digest();
}

/**
 * Continuation tokens: the LastEvaluatedKey encrypted and authenticated with AES-256-GCM, the scope (hospital and
 * query) as additional data. A token from another hospital or another filter fails authentication.
 */
export function createPageTokens(secret: () => Promise<string> | string): PageTokens & { ready: Promise<void> } {
  let key: Buffer | undefined;
  const ready = Promise.resolve(secret()).then((s) => {
    key = derive(s, 'page-token');
  });
  const needKey = () => {
    if (!key) throw new Error('Page token key not loaded');
    return key;
  };
  return {
    ready,
    seal(scope, lastKey) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', needKey(), iv);
      cipher.setAAD(Buffer.from(scope));
      const body = Buffer.concat([cipher.update(JSON.stringify(lastKey), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(scope, token) {
      try {
        const raw = Buffer.from(token, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', needKey(), raw.subarray(0, 12));
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

/** Patient alias: HMAC-SHA256 of the normalised MRN keyed per hospital, shown as `PT-` + 12 hex digits. */
export function createPseudonymizer(secret: () => Promise<string>): Pseudonymizer {
  return {
    async patientAlias(hospitalId, mrn) {
      const digest = createHmac('sha256', derive(await secret(), `patient-alias:${hospitalId}`)).update(mrn.trim().toUpperCase()).digest('hex');
      return `PT-${digest.slice(0, 12).toUpperCase()}`;
    },
  };
}
