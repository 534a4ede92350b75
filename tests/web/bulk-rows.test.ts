import { describe, expect, it } from 'vitest';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import {
  bulkSummary,
  departmentOptions,
  duplicateRow,
  emptyRow,
  rejectedRows,
  resolveNames,
  teamOptions,
  templateSample,
  withImportedValue,
  type BulkRow,
} from '#web/features/invitations/utils/bulk-rows.ts';

const departments = [
  { id: 'd1', name: 'Radiology' },
  { id: 'd2', name: 'Neurology' },
] as Department[];
const teams = [
  { id: 't1', name: 'Neuroradiology', departmentId: 'd1' },
  { id: 't2', name: 'Stroke Imaging', departmentId: 'd2' },
  { id: 't3', name: 'Orphans', departmentId: 'gone' },
] as Team[];
const row = (id: number, email: string): BulkRow => ({ ...emptyRow(id), fullName: `Person ${id}`, email });

describe('the rows of Bulk Invitations', () => {
  it('starts a row empty under its id', () => {
    expect(emptyRow(7)).toEqual({ id: 7, fullName: '', email: '', role: '', department: '', team: '' });
  });

  it("holds a CSV's department and team names as their ids, case-insensitively, and keeps unknown names", () => {
    const csv = { fullName: 'A', email: 'a@x.test', role: 'guest', department: 'radiology', team: 'NEURORADIOLOGY' };
    expect(resolveNames(csv, departments, teams)).toEqual({ ...csv, department: 'd1', team: 't1' });
    expect(resolveNames({ ...csv, department: 'd2', team: '' }, departments, teams)).toMatchObject({
      department: 'd2',
      team: '',
    });
    expect(resolveNames({ ...csv, department: 'Cardiology', team: 'Echo' }, departments, teams)).toMatchObject({
      department: 'Cardiology',
      team: 'Echo',
    });
  });

  it('offers an imported value the hospital does not hold under its own name', () => {
    const options = [{ value: 'd1', label: 'Radiology' }];
    expect(withImportedValue(options, '', false)).toBe(options);
    expect(withImportedValue(options, 'd1', true)).toBe(options);
    expect(withImportedValue(options, 'Cardiology', false)).toEqual([
      ...options,
      { value: 'Cardiology', label: 'Cardiology' },
    ]);
    expect(departmentOptions(departments, 'Cardiology').map((o) => o.label)).toEqual([
      'Radiology',
      'Neurology',
      'Cardiology',
    ]);
    expect(departmentOptions(departments, 'd2')).toHaveLength(2);
  });

  it("offers the teams of the row's department only", () => {
    expect(teamOptions(teams, { department: 'd1', team: '' })).toEqual([{ value: 't1', label: 'Neuroradiology' }]);
    expect(teamOptions(teams, { department: '', team: '' })).toEqual([]);
    // A known team of another department stays out; an unknown name is offered.
    expect(teamOptions(teams, { department: 'd1', team: 't2' })).toEqual([{ value: 't1', label: 'Neuroradiology' }]);
    expect(teamOptions(teams, { department: 'd1', team: 'Echo' }).map((o) => o.value)).toEqual(['t1', 'Echo']);
  });

  it('duplicates a row right after it, without its e-mail', () => {
    const rows = [row(1, 'a@x.test'), row(2, 'b@x.test'), row(3, 'c@x.test')];
    const copied = duplicateRow(rows, 2, 9);
    expect(copied.map((r) => r.id)).toEqual([1, 2, 9, 3]);
    expect(copied[2]).toEqual({ ...rows[1], id: 9, email: '' });
    expect(duplicateRow(rows, 42, 9)).toEqual(rows);
  });

  it('counts valid rows, rows with errors, and duplicated addresses', () => {
    expect(bulkSummary([[], ['Email is required'], ['Duplicate email (row 1)', 'Role is required'], []])).toEqual({
      valid: 2,
      errors: 2,
      duplicates: 1,
    });
    expect(bulkSummary([])).toEqual({ valid: 0, errors: 0, duplicates: 0 });
  });

  it("keeps the rows the server refused, by its 1-based row numbers, with the server's messages", () => {
    const rows = [row(1, 'a@x.test'), row(2, 'b@x.test'), row(3, 'c@x.test')];
    expect(
      rejectedRows(rows, [
        { row: 1, errors: ['Already a member'] },
        { row: 3, errors: ['Invitation pending'] },
      ]),
    ).toEqual({ rows: [rows[0], rows[2]], errors: [['Already a member'], ['Invitation pending']] });
  });

  it("samples the template's departments and teams from the hospital's teams", () => {
    expect(templateSample(departments, teams)).toEqual([
      { department: 'Radiology', team: 'Neuroradiology' },
      { department: 'Neurology', team: 'Stroke Imaging' },
      { department: '', team: 'Orphans' },
    ]);
  });
});
