import type { AuditFilter } from '#shared/schemas/api/audit.ts';

/** Audit actions offered in the filter: those the product records (docs/domain.md#audit-trail). */
export const AUDIT_ACTIONS = [
  'USER_SIGNED_IN',
  'USER_LOGGED_OUT',
  'DATASET_CREATED',
  'DATASET_UPDATED',
  'DATASET_VIEWED',
  'ASSET_URLS_ISSUED',
  'DATASET_EXPORTED',
  'DATASET_DELETED',
  'DATASET_RETENTION_EXPIRED',
  'DATASET_RESTORED',
  'DATASET_PURGED',
  'LEGAL_HOLD_PLACED',
  'LEGAL_HOLD_LIFTED',
  'UPLOAD_COMPLETED',
  'STATUS_CHANGED',
  'DATASET_DEIDENTIFIED',
  'SERIES_SELECTION_CHANGED',
  'SERIES_CLASSIFIED',
  'SERIES_CLASSIFIED_AI',
  'SERIES_RELEASED',
  'SERIES_PREVIEWED',
  'SERIES_REDACTED',
  'SERIES_CONVERTED',
  'SERIES_FAILED',
  'SURFACE_SKIPPED',
  'TRACTS_BUILT',
  'REPORT_BUILT',
  'DEIDENTIFICATION_POLICY_CHANGED',
  'SHARE_APPROVAL_REQUESTED',
  'SHARE_APPROVED',
  'SHARE_REFUSED',
  'AUDIT_EXPORTED',
  'AUDIT_CHAIN_VERIFIED',
] as const;

/** "DATASET_VIEWED" → "Dataset viewed". */
export function actionLabel(action: string): string {
  return action
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase());
}

/** The form's values as the API's filter: blanks dropped, ids trimmed. */
export function toAuditFilter(form: Record<keyof AuditFilter, string>): AuditFilter {
  const filter: AuditFilter = {};
  for (const [key, value] of Object.entries(form) as [keyof AuditFilter, string][]) {
    const trimmed = value.trim();
    if (trimmed) filter[key] = trimmed;
  }
  return filter;
}
