/** docs/domain.md#formatting: Bytes, KB, MB, GB, TB, base 1024, two decimals. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  const exponent = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** exponent).toFixed(2))} ${units[exponent]}`;
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Storage shown in TB: GB divided by 1024, one decimal. */
export function gbToTb(gb: number): string {
  return (gb / 1024).toFixed(1);
}

/** Percent of the storage cap in use, one decimal. */
export function storagePercent(usedBytes: number, capGB: number): number {
  if (capGB <= 0) return 0;
  return Math.round((usedBytes / (capGB * 1024 ** 3)) * 1000) / 10;
}
