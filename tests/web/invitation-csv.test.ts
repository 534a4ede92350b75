import { describe, expect, it } from 'vitest';
import { validateBulkRows } from '#shared/schemas/api/invitations.ts';
import {
  checkCsvFiles,
  invitationTemplateCsv,
  parseInvitationCsv,
} from '#web/features/invitations/utils/invitation-csv.ts';

const HEADER = 'name,email,role,department,team';

describe('the bulk invitation CSV', () => {
  it('reads quoted fields with embedded commas, quotes and line breaks', () => {
    const csv = `${HEADER},specialization\n"Lee, Jordan",jordan@x.test,team_lead,Radiology,"Neuro, Spine","MR ""3T""\nreading"\n`;
    const { rows, errors } = parseInvitationCsv(csv);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        fullName: 'Lee, Jordan',
        email: 'jordan@x.test',
        role: 'team_lead',
        department: 'Radiology',
        team: 'Neuro, Spine',
        specialization: 'MR "3T"\nreading',
      },
    ]);
  });

  it('drops a byte-order mark, accepts CRLF and matches headers case-insensitively', () => {
    const csv = `\uFEFFName,EMAIL,Role,Department,TEAM\r\nAnn Lee,ann@x.test,GUEST,,\r\nBo Chen,bo@x.test,team_member,Radiology,Neuroradiology\r\n`;
    const { rows, errors } = parseInvitationCsv(csv);
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.fullName, r.role, r.team])).toEqual([
      ['Ann Lee', 'guest', ''],
      ['Bo Chen', 'team_member', 'Neuroradiology'],
    ]);
  });

  it('names the missing headers', () => {
    expect(parseInvitationCsv('name,email,role\nA B,a@x.test,guest\n').errors).toEqual([
      'Missing headers: department, team',
    ]);
  });

  it('enforces the 5 MB limit on the file and on the text', () => {
    expect(checkCsvFiles([{ name: 'big.csv', type: 'text/csv', size: 5 * 1024 * 1024 + 1 }])).toBe(
      'File is larger than 5242880 bytes',
    );
    expect(checkCsvFiles([{ name: 'ok.csv', type: 'text/csv', size: 5 * 1024 * 1024 }])).toBeUndefined();
    expect(checkCsvFiles([{ name: 'a.xlsx', type: 'application/vnd.ms-excel', size: 10 }])).toBe(
      'File type must be text/csv, .csv',
    );
    expect(
      checkCsvFiles([
        { name: 'a.csv', type: 'text/csv', size: 1 },
        { name: 'b.csv', type: 'text/csv', size: 1 },
      ]),
    ).toBe('Too many files');
    const big = `${HEADER}\n${'x'.repeat(5 * 1024 * 1024)}`;
    expect(parseInvitationCsv(big).errors).toEqual(['File is larger than 5242880 bytes']);
  });

  it('finds the duplicate (case-insensitive) and the bad e-mail among 50 rows', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `"Person ${i}, MD",person${i}@x.test,team_member,,`);
    lines[20] = '"Dup, Person",PERSON3@X.TEST,guest,,';
    lines[31] = '"Bad, Email",not-an-email,guest,,';
    const { rows, errors } = parseInvitationCsv(`${HEADER}\n${lines.join('\n')}\n`);
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(50);
    expect(rows[0]!.fullName).toBe('Person 0, MD');
    const problems = validateBulkRows(rows, 'basic');
    expect(problems[20]).toEqual(['Duplicate email (row 4)']);
    expect(problems[31]).toEqual(['Invalid email format']);
    expect(problems.filter((p) => p.length > 0)).toHaveLength(2);
  });

  it('applies the Strict rules on top of the Basic ones', () => {
    const rows = [
      { fullName: 'Ann Lee', email: 'ann@x.test', role: 'team_lead', department: '', team: '' },
      { fullName: 'Bo Chen', email: 'bo@x.test', role: 'team_member', department: 'Radiology', team: '' },
      { fullName: 'Cy Dee', email: 'cy@x.test', role: 'guest', department: 'Radiology', team: '' },
      { fullName: '', email: '', role: '', department: '', team: '' },
    ];
    expect(validateBulkRows(rows, 'basic').map((e) => e.length)).toEqual([0, 0, 0, 3]);
    expect(validateBulkRows(rows, 'strict')).toEqual([
      ['Department required for Team Lead'],
      ['Team assignment recommended'],
      [],
      ['Name is required', 'Email is required', 'Role is required'],
    ]);
  });

  it('offers a template that parses back into three valid sample rows', () => {
    const template = invitationTemplateCsv([{ department: 'Radiology', team: 'Neuroradiology' }]);
    const { rows, errors } = parseInvitationCsv(template);
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(3);
    expect(validateBulkRows(rows, 'strict').every((e) => e.length === 0)).toBe(true);
  });
});
