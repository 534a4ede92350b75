import { createHash } from 'node:crypto';

/** A file key as clients send it (64 lowercase hex characters), named after `label` so tests can tell files apart. */
export function fileKeyOf(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}
