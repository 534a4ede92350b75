import type { BulkRowInput } from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';

/**
 * The rows of Bulk Invitations (docs/screens.md#bulk-invitations), typed in or read from a CSV: pure steps, so the
 * component only holds them. A row's `id` keys it on screen while rows are added, duplicated and removed.
 */
export type BulkRow = BulkRowInput & { id: number };
export type Option = { value: string; label: string };

export const emptyRow = (id: number): BulkRow => ({ id, fullName: '', email: '', role: '', department: '', team: '' });

/** A CSV names departments and teams; the table holds their ids when they match (case-insensitive). */
export function resolveNames(row: BulkRowInput, departments: Department[], teams: Team[]): BulkRowInput {
  const byName = <T extends { id: string; name: string }>(list: T[], value: string) =>
    list.find((x) => x.id === value || x.name.toLowerCase() === value.toLowerCase());
  const department = row.department ? byName(departments, row.department) : undefined;
  const team = row.team ? byName(teams, row.team) : undefined;
  return { ...row, department: department?.id ?? row.department, team: team?.id ?? row.team };
}

/** A CSV row may name a department or team the hospital does not hold: keep it selectable under its own name. */
export function withImportedValue(options: Option[], value: string, known: boolean): Option[] {
  return value && !known ? [...options, { value, label: value }] : options;
}

/** The Department choices of a row: the hospital's departments, and the CSV's value when it names none of them. */
export function departmentOptions(departments: Department[], value: string): Option[] {
  return withImportedValue(
    departments.map((d) => ({ value: d.id, label: d.name })),
    value,
    departments.some((d) => d.id === value),
  );
}

/** The Team choices of a row: the teams of its department, and the CSV's value when it names no team. */
export function teamOptions(teams: Team[], row: Pick<BulkRowInput, 'department' | 'team'>): Option[] {
  return withImportedValue(
    teams.filter((t) => t.departmentId === row.department).map((t) => ({ value: t.id, label: t.name })),
    row.team,
    teams.some((t) => t.id === row.team),
  );
}

/** Duplicate: a copy of the row right after it, its e-mail left empty (an address is invited once). */
export function duplicateRow(rows: readonly BulkRow[], id: number, newId: number): BulkRow[] {
  const at = rows.findIndex((r) => r.id === id);
  const row = rows[at];
  if (!row) return [...rows];
  return [...rows.slice(0, at + 1), { ...row, id: newId, email: '' }, ...rows.slice(at + 1)];
}

/** The badges after Validate All or a send: rows without errors, rows with errors, and duplicated addresses. */
export function bulkSummary(errors: readonly string[][]): { valid: number; errors: number; duplicates: number } {
  return {
    valid: errors.filter((e) => e.length === 0).length,
    errors: errors.filter((e) => e.length > 0).length,
    duplicates: errors.filter((e) => e.some((m) => m.startsWith('Duplicate email'))).length,
  };
}

/**
 * What stays on screen after a send the server partly refused: the refused rows (its `row` numbers start at 1),
 * each with the server's messages.
 */
export function rejectedRows(
  rows: readonly BulkRow[],
  rejected: readonly { row: number; errors: string[] }[],
): { rows: BulkRow[]; errors: string[][] } {
  return { rows: rejected.map((r) => rows[r.row - 1]!), errors: rejected.map((r) => r.errors) };
}

/** The template's sample departments and teams: each team with its department's name. */
export function templateSample(departments: Department[], teams: Team[]): { department: string; team: string }[] {
  return teams.map((t) => ({
    department: departments.find((d) => d.id === t.departmentId)?.name ?? '',
    team: t.name,
  }));
}
