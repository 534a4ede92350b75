import type { PatientShareStatus } from '#shared/schemas/api/shares.ts';
import {
  MAX_OPENS_OPTIONS,
  SHARE_EXPIRY_OPTIONS,
  UNLIMITED_OPENS,
  type PatientShareDefaults,
  type ShareScope,
} from '#shared/schemas/api/policies.ts';

/** Labels of the share scopes (docs/screens.md#share-panel). */
export const SCOPE_LABELS: Record<ShareScope, string> = {
  viewer_only: 'Viewer only',
  screenshots: 'Screenshots',
  downloads: 'Downloads',
};

export const STATUS_PALETTE = {
  PENDING_APPROVAL: 'yellow',
  ACTIVE: 'green',
  EXPIRED: 'gray',
  REVOKED: 'red',
  EXHAUSTED: 'orange',
  REFUSED: 'red',
} as const satisfies Record<PatientShareStatus, string>;

/** Expiry options within the policy in force: the hospital's options up to its (or the team's) expiry. */
export function expiryOptions(limits: PatientShareDefaults) {
  return SHARE_EXPIRY_OPTIONS.filter((o) => o.hours <= limits.defaultExpiryHours);
}

/** Max-opens options within the policy: Unlimited only where the policy is unlimited. */
export function maxOpensOptions(limits: PatientShareDefaults) {
  return MAX_OPENS_OPTIONS.filter((n) =>
    limits.maxOpens === UNLIMITED_OPENS ? true : n !== UNLIMITED_OPENS && n <= limits.maxOpens,
  );
}

export const opensLabel = (n: number) => (n === UNLIMITED_OPENS ? 'Unlimited' : String(n));

export type PatientShareForm = {
  recipientEmail: string;
  recipientPhone: string;
  expiresInHours: number;
  maxOpens: number;
  watermark: boolean;
  allowDownloads: boolean;
  scopes: ShareScope[];
};

/** The form starts at the policy's defaults (docs/domain.md#policies-and-inheritance), watermark on, downloads off. */
export function defaultForm(limits: PatientShareDefaults): PatientShareForm {
  return {
    recipientEmail: '',
    recipientPhone: '',
    expiresInHours: limits.defaultExpiryHours,
    maxOpens: limits.maxOpens,
    watermark: true,
    allowDownloads: false,
    scopes: ['viewer_only'],
  };
}
