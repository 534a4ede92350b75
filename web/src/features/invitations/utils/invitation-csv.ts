import Papa from 'papaparse';
import { BULK_CSV_MAX_BYTES, type BulkRowInput } from '#shared/schemas/api/invitations.ts';

/**
 * The bulk CSV (docs/screens.md#bulk-invitations): parsed with a real CSV parser (quoted fields, embedded commas and
 * line breaks, CRLF), a leading byte-order mark dropped, headers matched case-insensitively. Required headers: name,
 * email, role, department, team; specialization is read when present.
 */
export const REQUIRED_CSV_HEADERS = ['name', 'email', 'role', 'department', 'team'] as const;
export const CSV_ACCEPT = { mime: 'text/csv', extension: '.csv' } as const;
export const TEMPLATE_FILE_NAME = 'invitation_template.csv';

export type CsvParseResult = { rows: BulkRowInput[]; errors: string[] };

/** The drop zone's checks: one file, a CSV, at most 5 MB (enforced, not only hinted). */
export function checkCsvFiles(files: readonly Pick<File, 'name' | 'type' | 'size'>[]): string | undefined {
  if (files.length > 1) return 'Too many files';
  const file = files[0];
  if (!file) return undefined;
  const isCsv = file.name.toLowerCase().endsWith(CSV_ACCEPT.extension) && (file.type === '' || /csv/i.test(file.type));
  if (!isCsv) return `File type must be ${CSV_ACCEPT.mime}, ${CSV_ACCEPT.extension}`;
  if (file.size > BULK_CSV_MAX_BYTES) return `File is larger than ${BULK_CSV_MAX_BYTES} bytes`;
  if (file.size === 0) return 'File is smaller than 1 bytes';
  return undefined;
}

export function parseInvitationCsv(text: string): CsvParseResult {
  if (new TextEncoder().encode(text).length > BULK_CSV_MAX_BYTES)
    return { rows: [], errors: [`File is larger than ${BULK_CSV_MAX_BYTES} bytes`] };
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const headers = parsed.meta.fields ?? [];
  const missing = REQUIRED_CSV_HEADERS.filter((h) => !headers.includes(h));
  if (missing.length > 0) return { rows: [], errors: [`Missing headers: ${missing.join(', ')}`] };
  const errors = parsed.errors
    // A short last line is a row with empty trailing fields, not a problem worth refusing the file for.
    .filter((e) => e.code !== 'TooFewFields')
    .map((e) => (e.row !== undefined ? `Row ${e.row + 2}: ${e.message}` : e.message));
  const rows = parsed.data.map((record) => ({
    fullName: (record.name ?? '').trim(),
    email: (record.email ?? '').trim(),
    role: (record.role ?? '').trim().toLowerCase(),
    department: (record.department ?? '').trim(),
    team: (record.team ?? '').trim(),
    ...(record.specialization?.trim() ? { specialization: record.specialization.trim() } : {}),
  }));
  return { rows, errors };
}

/** The template: the required headers plus specialization, and three sample rows (one per invitable role). */
export function invitationTemplateCsv(sample: { department: string; team: string }[]): string {
  const [first, second] = [
    sample[0] ?? { department: '', team: '' },
    sample[1] ?? sample[0] ?? { department: '', team: '' },
  ];
  const rows = [
    ['name', 'email', 'role', 'department', 'team', 'specialization'],
    ['Jordan Lee', 'jordan.lee@example.org', 'team_lead', first.department, first.team, 'Neuroradiology'],
    ['Sam Rivera', 'sam.rivera@example.org', 'team_member', second.department, second.team, 'MR Technologist'],
    ['Casey Morgan', 'casey.morgan@example.org', 'guest', '', '', ''],
  ];
  return Papa.unparse(rows, { newline: '\r\n' });
}
