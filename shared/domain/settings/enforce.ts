import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  UNLIMITED_OPENS,
  type FileFormat,
  type Policy,
  type ShareScope,
} from '#shared/schemas/api/policies.ts';
import type { StorageNotificationType } from '#shared/schemas/api/notifications.ts';
import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { Clock, IdGenerator } from '#shared/domain/ports.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import type { SettingsStore } from './ports.ts';

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

/** The thresholds crossed going from `before` to `after` bytes, strongest first (at most one notification). */
export function crossedThreshold(
  beforeBytes: number,
  afterBytes: number,
  policy: Policy,
): StorageNotificationType | undefined {
  const before = percentUsed(beforeBytes, policy);
  const after = percentUsed(afterBytes, policy);
  const { warning, critical } = policy.storageCompute.alertThresholds;
  if (before < critical && after >= critical) return 'STORAGE_CRITICAL';
  if (before < warning && after >= warning) return 'STORAGE_WARNING';
  return undefined;
}

/** Who hears of a crossed threshold and how (docs/domain.md#notifications). */
export type ThresholdDeps = {
  settings: Pick<SettingsStore, 'getNotificationPreferences'>;
  organisation?: Pick<OrganisationStore, 'listUsers'>;
  notifications?: NotificationInbox;
  clock: Clock;
  ids: IdGenerator;
};

/** Hospital admins a hospital has at most, as far as a threshold notification goes (one page of the index). */
const ADMINS_NOTIFIED = 100;

/**
 * When an upload takes the hospital's storage across the warning or critical threshold, each ACTIVE hospital admin
 * whose notification preferences keep usage thresholds on gets a notification in their inbox (the bell).
 * Returns the type raised, if any.
 */
export async function notifyThresholds(
  hospitalId: string,
  beforeBytes: number,
  afterBytes: number,
  policy: Policy,
  deps: ThresholdDeps,
): Promise<StorageNotificationType | undefined> {
  const type = crossedThreshold(beforeBytes, afterBytes, policy);
  if (!type || !deps.organisation || !deps.notifications) return type;
  const percent = Math.round(percentUsed(afterBytes, policy) * 10) / 10;
  const admins = await deps.organisation.listUsers({
    hospitalId,
    role: 'HOSPITAL_ADMIN',
    status: 'ACTIVE',
    limit: ADMINS_NOTIFIED,
  });
  const now = deps.clock.now();
  for (const admin of admins.items) {
    const preferences =
      (await deps.settings.getNotificationPreferences(hospitalId, admin.id)) ?? DEFAULT_NOTIFICATION_PREFERENCES;
    if (!preferences.usageThresholds) continue;
    await deps.notifications.add({
      id: deps.ids.newId(),
      hospitalId,
      userId: admin.id,
      type,
      title: type === 'STORAGE_CRITICAL' ? 'Storage critical' : 'Storage warning',
      description: `${percent}% of the storage cap of ${policy.storageCompute.storageCapGB} GB is in use.`,
      href: '/hospital-admin/usage',
      createdAt: now,
      read: false,
    });
  }
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
