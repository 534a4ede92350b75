import Papa from 'papaparse';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import type { Reports } from '#shared/schemas/api/oversight.ts';

/**
 * The report as CSV: one row per month (studies by type and status, storage, active users), then one row per team and
 * the processing-time percentiles, each section under its own header row. Formula-like cells are escaped.
 */
export function reportCsv(report: Reports): string {
  const months = Papa.unparse(
    {
      fields: [
        'Month',
        'Studies',
        ...STUDY_TYPES.map((t) => `Type ${t}`),
        ...DATASET_STATUSES.map((s) => `Status ${s}`),
        'Storage added (bytes)',
        'Storage total (bytes)',
        'Active users',
      ],
      data: report.perMonth.map((m) => [
        m.month,
        m.studies,
        ...STUDY_TYPES.map((t) => m.byType[t]),
        ...DATASET_STATUSES.map((s) => m.byStatus[s]),
        m.storageAddedBytes,
        m.storageTotalBytes,
        m.activeUsers,
      ]),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
  const teams = Papa.unparse(
    {
      fields: ['Team', ...report.perMonth.map((m) => m.month), 'Studies', 'Completed', 'Failed'],
      data: report.byTeam.map((t) => [t.teamName, ...t.perMonth, t.studies, t.completed, t.failed]),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
  const p = report.processingMinutes;
  const processing = Papa.unparse(
    {
      fields: ['Completed studies', 'Processing minutes p50', 'p90', 'p99'],
      data: [[p.completed, p.p50 ?? '', p.p90 ?? '', p.p99 ?? '']],
    },
    { newline: '\r\n' },
  );
  return [months, teams, processing].join('\r\n\r\n') + '\r\n';
}
