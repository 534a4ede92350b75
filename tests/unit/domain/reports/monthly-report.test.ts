import { describe, expect, it } from 'vitest';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import type { UserRecord } from '#shared/domain/auth/ports.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import { previousMonth, sendMonthlyReports, MONTHLY_REPORT_ACTOR } from '#shared/domain/reports/monthly-report.ts';
import { caller, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';
import { createMemorySettingsStore } from '#functions/adapters/memory/index.ts';

const user = (id: string, role: UserRecord['role'], status: UserRecord['status'] = 'ACTIVE'): UserRecord => ({
  id,
  email: `${id}@x.test`,
  firstName: 'A',
  lastName: id,
  role,
  status,
  hospitalId: 'h1',
  teamId: null,
  permissions: [],
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('the scheduled monthly report (docs/domain.md#monthly-report)', () => {
  it('names the previous calendar month and its last moment', () => {
    expect(previousMonth('2026-03-01T06:00:00.000Z')).toEqual({ month: '2026-02', end: '2026-02-28T23:59:59.999Z' });
    expect(previousMonth('2026-01-15T00:00:00.000Z')).toEqual({ month: '2025-12', end: '2025-12-31T23:59:59.999Z' });
  });

  it("e-mails each ACTIVE hospital admin the previous month's figures, without patient data, and audits it", async () => {
    const p = ports();
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Northside General', createdAt: '', updatedAt: '' });
    for (const u of [
      user('a1', 'HOSPITAL_ADMIN'),
      user('a2', 'HOSPITAL_ADMIN'),
      user('a3', 'HOSPITAL_ADMIN', 'DISABLED'),
      user('m1', 'TEAM_MEMBER'),
    ])
      await p.directory.putUser(u);
    const member = caller('TEAM_MEMBER');
    // Created in February (the fakes' clock), and one in March: only February's counts.
    await createDataset(NEW_DATASET, member, p);
    await createDataset(NEW_DATASET, member, p);
    await createDataset(NEW_DATASET, member, { ...p, clock: { now: () => '2026-03-01T01:00:00.000Z' } });

    const mails: MailMessage[] = [];
    const result = await sendMonthlyReports({
      ...p,
      settings: createMemorySettingsStore({ hospitals: ['h1', 'h-gone'] }),
      mailer: { send: async (m) => void mails.push(m) },
      clock: { now: () => '2026-03-01T06:00:00.000Z' },
    });

    expect(result).toEqual({ hospitals: 1, sent: 2 });
    expect(mails.map((m) => m.to).sort()).toEqual(['a1@x.test', 'a2@x.test']);
    const mail = mails[0]!;
    expect(mail).toMatchObject({
      subject: 'Northside General: monthly report for February 2026',
      tag: 'monthly-report',
    });
    expect(mail.text).toContain('Studies: 2');
    expect(mail.text).toContain('By type: DIAGNOSTIC 2');
    expect(mail.text).toContain('Active users: 1');
    for (const phi of [NEW_DATASET.mrn, NEW_DATASET.studyDescription, NEW_DATASET.clinicalIndication, 'Dr. A'])
      expect(mail.text + mail.html).not.toContain(phi);
    expect(p.audit.events.at(-1)).toMatchObject({
      hospitalId: 'h1',
      action: 'MONTHLY_REPORT_SENT',
      ...MONTHLY_REPORT_ACTOR,
      details: { month: '2026-02', recipients: ['a1', 'a2'], studies: 2 },
    });
  });

  it('sends a month once however often the job runs (the twin runs it daily)', async () => {
    const p = ports();
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Northside General', createdAt: '', updatedAt: '' });
    await p.directory.putUser(user('a1', 'HOSPITAL_ADMIN'));
    const mails: MailMessage[] = [];
    const job = (now: string) =>
      sendMonthlyReports({
        ...p,
        settings,
        mailer: { send: async (m) => void mails.push(m) },
        clock: { now: () => now },
      });
    const settings = createMemorySettingsStore({ hospitals: ['h1'] });

    expect(await job('2026-03-01T06:00:00.000Z')).toEqual({ hospitals: 1, sent: 1 });
    expect(await job('2026-03-02T06:00:00.000Z')).toEqual({ hospitals: 0, sent: 0 });
    expect(await job('2026-04-01T06:00:00.000Z')).toEqual({ hospitals: 1, sent: 1 });
    expect(mails.map((m) => m.subject)).toEqual([
      'Northside General: monthly report for February 2026',
      'Northside General: monthly report for March 2026',
    ]);
  });

  it('sends no report to a deactivated hospital, and claims none of its months (docs/domain.md#deactivation)', async () => {
    // Arrange
    const p = ports();
    const hospital = { id: 'h1', slug: 'h1', name: 'Northside General', createdAt: '', updatedAt: '' };
    await p.directory.putHospital({ ...hospital, status: 'DEACTIVATED' });
    await p.directory.putUser(user('a1', 'HOSPITAL_ADMIN'));
    const mails: MailMessage[] = [];
    const settings = createMemorySettingsStore({ hospitals: ['h1'] });
    const job = () =>
      sendMonthlyReports({
        ...p,
        settings,
        mailer: { send: async (m) => void mails.push(m) },
        clock: { now: () => '2026-03-01T06:00:00.000Z' },
      });
    // Act
    const deactivated = await job();
    await p.directory.putHospital({ ...hospital, status: 'ACTIVE' });
    const restored = await job();
    // Assert: restored within the month, its report still goes out.
    expect(deactivated).toEqual({ hospitals: 0, sent: 0 });
    expect(restored).toEqual({ hospitals: 1, sent: 1 });
  });
});
