import { UNLIMITED_OPENS, type FileFormat, type Policy, type ShareScope } from '#shared/schemas/api/policies.ts';
import type { StorageNotificationType } from '#shared/schemas/api/notifications.ts';
import type { NotificationLedger } from '#shared/domain/notifications/ports.ts';
import {
  activeHospitalAdmins,
  deliverToWhoWants,
  type PreferredNotificationDeps,
} from '#shared/domain/notifications/preferences.ts';
import type { IdGenerator } from '#shared/domain/ports.ts';
import { ValidationError } from '#shared/domain/errors.ts';

/** Bytes per GB as the product counts storage (docs/domain.md#policies-and-inheritance: base 1024). */
export const BYTES_PER_GB = 1024 ** 3;
const BYTES_PER_MB = 1024 ** 2;

/** A file an upload declares: its size and, where the client says so, its format (absent = DICOM). */
export type DeclaredFile = { sizeBytes: number; format?: FileFormat };

const gb = (bytes: number) => Math.round((bytes / BYTES_PER_GB) * 10) / 10;

/**
 * The policy's checks on an upload, before any byte is sent (docs/domain.md#policies-and-inheritance): each file's
 * size and format, then the declared bytes plus the storage already in use against the storage cap.
 */
export function checkUploadAgainstPolicy(
  files: readonly DeclaredFile[],
  policy: Policy,
  storageUsedBytes: number,
): void {
  const maxBytes = policy.maxFileSizeMB * BYTES_PER_MB;
  if (files.some((f) => f.sizeBytes > maxBytes)) throw new ValidationError('FILE_TOO_LARGE', { n: maxBytes });
  if (files.some((f) => !policy.allowedFormats.includes(f.format ?? 'dicom')))
    throw new ValidationError('FILE_TYPE_NOT_ALLOWED', { formats: policy.allowedFormats.join(', ') });
  const declared = files.reduce((sum, f) => sum + f.sizeBytes, 0);
  const cap = policy.storageCompute.storageCapGB * BYTES_PER_GB;
  if (storageUsedBytes + declared > cap)
    throw new ValidationError('STORAGE_CAP_EXCEEDED', {
      cap: policy.storageCompute.storageCapGB,
      used: gb(storageUsedBytes),
    });
}

/** Percent of the cap in use (0 when there is no cap to speak of). */
export function percentUsed(usedBytes: number, policy: Policy): number {
  const cap = policy.storageCompute.storageCapGB * BYTES_PER_GB;
  return cap > 0 ? (usedBytes / cap) * 100 : 0;
}

/** Storage in use at which the hospital admins are told its cap is reached, beside the policy's two thresholds. */
export const STORAGE_FULL_PERCENT = 100;

/**
 * The thresholds crossed going from `before` to `after` bytes, weakest first: the policy's warning and critical
 * percentages and the cap itself (docs/domain.md#billing-alerts).
 */
export function crossedThresholds(beforeBytes: number, afterBytes: number, policy: Policy): number[] {
  const before = percentUsed(beforeBytes, policy);
  const after = percentUsed(afterBytes, policy);
  const { warning, critical } = policy.storageCompute.alertThresholds;
  return [...new Set([warning, critical, STORAGE_FULL_PERCENT])]
    .sort((a, b) => a - b)
    .filter((t) => before < t && after >= t);
}

/** The strongest threshold crossed going from `before` to `after` bytes, as a notification type (at most one). */
export function crossedThreshold(
  beforeBytes: number,
  afterBytes: number,
  policy: Policy,
): StorageNotificationType | undefined {
  const strongest = crossedThresholds(beforeBytes, afterBytes, policy).at(-1);
  if (strongest === undefined) return undefined;
  return strongest >= policy.storageCompute.alertThresholds.critical ? 'STORAGE_CRITICAL' : 'STORAGE_WARNING';
}

/** Who hears of a crossed threshold and how (docs/domain.md#notifications). */
export type ThresholdDeps = Omit<PreferredNotificationDeps, 'settings' | 'ids'> & {
  settings: NonNullable<PreferredNotificationDeps['settings']>;
  notificationLedger?: Pick<NotificationLedger, 'claimOnce' | 'queueDigestItem'>;
  ids: IdGenerator;
};

/**
 * When an upload takes the hospital's storage across the warning or critical threshold or the cap, each ACTIVE
 * hospital admin whose notification preferences keep usage thresholds on is told once, by the channels they chose
 * (docs/domain.md#billing-alerts). Each threshold is raised once a calendar month (UTC): a claim per hospital,
 * threshold and month, the weaker thresholds claimed with the strongest. Returns the type raised, if any.
 */
export async function notifyThresholds(
  hospitalId: string,
  beforeBytes: number,
  afterBytes: number,
  policy: Policy,
  deps: ThresholdDeps,
): Promise<StorageNotificationType | undefined> {
  const crossed = crossedThresholds(beforeBytes, afterBytes, policy);
  const strongest = crossed.at(-1);
  if (strongest === undefined) return undefined;
  const type = crossedThreshold(beforeBytes, afterBytes, policy)!;
  if (!deps.organisation || !deps.notifications) return type;
  const now = deps.clock.now();
  if (deps.notificationLedger) {
    const claimed: boolean[] = [];
    for (const t of crossed)
      claimed.push(await deps.notificationLedger.claimOnce(hospitalId, `storage#${now.slice(0, 7)}#${t}`, now));
    if (!claimed.at(-1)) return undefined;
  }
  const percent = Math.round(percentUsed(afterBytes, policy) * 10) / 10;
  const cap = policy.storageCompute.storageCapGB;
  await deliverToWhoWants(
    hospitalId,
    await activeHospitalAdmins(hospitalId, deps),
    'usageThresholds',
    {
      type,
      title:
        strongest >= STORAGE_FULL_PERCENT
          ? 'Storage full'
          : type === 'STORAGE_CRITICAL'
            ? 'Storage critical'
            : 'Storage warning',
      description: `${percent}% of the storage cap of ${cap} GB is in use.`,
      href: '/hospital-admin/usage',
    },
    deps,
  );
  return type;
}

/** What a patient share asks for, in the policy's terms (the sharing flow fills it from its request). */
export type ShareRequest = {
  otpRequired: boolean;
  expiresInHours: number;
  /** -1 = unlimited. */
  maxOpens: number;
  watermark: boolean;
  allowDownloads: boolean;
  scopes: readonly ShareScope[];
};

/**
 * The patient-share defaults as limits (docs/domain.md#policies-and-inheritance): a share may be stricter than the
 * policy in force for its team, never looser. Refused with POLICY_LESS_RESTRICTIVE naming the first looser item.
 */
export function checkShareAgainstPolicy(share: ShareRequest, policy: Policy): void {
  const limits = policy.patientShare;
  const opens = (n: number) => (n === UNLIMITED_OPENS ? Number.POSITIVE_INFINITY : n);
  const looser: string[] = [];
  if (limits.requireOTP && !share.otpRequired) looser.push('Require OTP');
  if (share.expiresInHours > limits.defaultExpiryHours) looser.push('Share expiry');
  if (opens(share.maxOpens) > opens(limits.maxOpens)) looser.push('Max opens');
  if (limits.watermarkEnabled && !share.watermark) looser.push('Watermark');
  if (share.allowDownloads && !limits.downloadsEnabled) looser.push('Downloads');
  if (share.scopes.some((s) => !limits.allowedScopes.includes(s))) looser.push('Allowed scopes');
  if (looser.length > 0)
    throw new ValidationError(
      'POLICY_LESS_RESTRICTIVE',
      { field: looser[0]!, level: 'hospital defaults' },
      looser.map((field) => ({ path: field, message: `${field} may not be less restrictive` })),
    );
}
