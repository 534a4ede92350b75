import type { Dataset } from '#shared/schemas/api/datasets.ts';

export const STUDY_TYPE_LABELS: Record<Dataset['studyType'], string> = {
  DIAGNOSTIC: 'Diagnostic',
  FOLLOW_UP: 'Follow-up',
  SCREENING: 'Screening',
  EMERGENCY: 'Emergency',
  RESEARCH: 'Research',
};

/** docs/domain.md#study-types-and-urgency: emergency, diagnostic and follow-up have their own styles; the rest are neutral. */
export function studyTypePalette(studyType: Dataset['studyType']): string {
  switch (studyType) {
    case 'EMERGENCY':
      return 'red';
    case 'DIAGNOSTIC':
      return 'blue';
    case 'FOLLOW_UP':
      return 'purple';
    default:
      return 'gray';
  }
}

export function statusPalette(status: Dataset['status']): string {
  if (status === 'COMPLETE') return 'green';
  if (status === 'FAILED') return 'red';
  if (status === 'CREATED') return 'gray';
  return 'orange';
}

export const STATUS_OPTIONS: { value: Dataset['status']; label: string }[] = [
  { value: 'CREATED', label: 'Created' },
  { value: 'UPLOADING', label: 'Uploading' },
  { value: 'ANONYMIZING', label: 'Anonymizing' },
  { value: 'CLASSIFYING', label: 'Classifying' },
  { value: 'PROCESSING', label: 'Processing' },
  { value: 'COMPLETE', label: 'Complete' },
  { value: 'FAILED', label: 'Failed' },
];
