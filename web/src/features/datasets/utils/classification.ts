import { CLASSIFIED_TYPES, type ClassifiedType } from '#shared/vocabulary/datasets.ts';

export const CLASSIFIED_TYPE_LABELS: Record<ClassifiedType, string> = {
  T1: 'T1',
  T2: 'T2',
  FLAIR: 'FLAIR',
  DTI: 'DTI',
  T1_CONTRAST: 'T1 contrast',
  DWI: 'DWI',
  SWI: 'SWI',
  OTHER: 'Other',
};

export const CLASSIFIED_TYPE_OPTIONS = CLASSIFIED_TYPES.map((t) => ({ value: t, label: CLASSIFIED_TYPE_LABELS[t] }));

export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

const ACTION_LABELS: Record<string, string> = {
  DATASET_CREATED: 'Dataset created',
  STATUS_CHANGED: 'Status changed',
  SERIES_CLASSIFIED: 'Classification changed',
  SERIES_SELECTED: 'Series selection changed',
  DATASET_UPDATED: 'Patient context updated',
  DATASET_DELETED: 'Dataset deleted',
  UPLOAD_STARTED: 'Upload started',
  UPLOAD_COMPLETED: 'Upload completed',
};

/** A readable line for an audit event: our ids and statuses only (the server never puts PHI in details). */
export function describeHistoryEvent(event: { action: string; details: Record<string, unknown> }): string {
  const label =
    ACTION_LABELS[event.action] ??
    event.action
      .toLowerCase()
      .replace(/_/g, ' ')
      .replace(/^\w/, (c) => c.toUpperCase());
  const d = event.details;
  if (typeof d.from === 'string' && typeof d.to === 'string')
    return `${label}: ${d.from} → ${d.to}${typeof d.reason === 'string' ? ` (${d.reason})` : ''}`;
  if (typeof d.classifiedType === 'string')
    return `${label}: ${typeof d.previousType === 'string' ? `${d.previousType} → ` : ''}${d.classifiedType}`;
  if (typeof d.to === 'string') return `${label}: ${d.to}`;
  return label;
}
