import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import type { Mailer } from '#shared/domain/invitations/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import type { Reports } from '#shared/schemas/api/oversight.ts';
import { getReports } from './reports.ts';

/** Actor of the audit events the monthly-report job writes. */
export const MONTHLY_REPORT_ACTOR = { actorUserId: 'monthly-report', actorName: 'Monthly report' } as const;

/** Hospital admins a hospital has at most, as far as the report goes (one page of the role index). */
const ADMINS_MAILED = 100;

export type MonthlyReportDeps = {
  directory: Directory;
  /** The admins to mail, and the month's report item (docs/domain.md#report-counters): no dataset is read. */
  organisation: Pick<OrganisationStore, 'listUsers' | 'listReportCounts' | 'listTeams'>;
  settings: Pick<SettingsStore, 'listHospitalIds' | 'claimMonthlyReport'>;
  mailer: Mailer;
  audit: AuditLog;
  clock: Clock;
};

/** The month before the month of `now` (yyyy-mm) and its last millisecond. */
export function previousMonth(now: string): { month: string; end: string } {
  const d = new Date(now);
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - 1);
  return { month: end.toISOString().slice(0, 7), end: end.toISOString() };
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const mb = (bytes: number) => `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The figures of one month as lines of text: counts, bytes and team names only, never patient data
 * (docs/domain.md#monthly-report).
 */
export function monthlyReportLines(reports: Reports, hospitalName: string): { subject: string; lines: string[] } {
  const month = reports.perMonth[0]!;
  const [year, m] = month.month.split('-');
  const title = `${MONTH_NAMES[Number(m) - 1]} ${year}`;
  const nonZero = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const teams = reports.byTeam
    .map((t) => ({ name: t.teamName, studies: t.perMonth[0] ?? 0 }))
    .filter((t) => t.studies > 0)
    .map((t) => `${t.name} ${t.studies}`)
    .join(', ');
  return {
    subject: `${hospitalName}: monthly report for ${title}`,
    lines: [
      `Monthly report for ${title}`,
      `Studies: ${month.studies}`,
      `By type: ${nonZero(month.byType)}`,
      `By status: ${nonZero(month.byStatus)}`,
      `By team: ${teams || 'none'}`,
      `Storage added: ${mb(month.storageAddedBytes)}`,
      `Active users: ${month.activeUsers}`,
    ],
  };
}

/**
 * The scheduled monthly report (docs/domain.md#monthly-report): for every hospital, the previous calendar month's
 * figures (the reports page's, computed as of that month's last moment) are e-mailed to each ACTIVE hospital admin,
 * and the sending is audited; a month already sent to a hospital is not sent again. Returns the number sent.
 */
export async function sendMonthlyReports(deps: MonthlyReportDeps): Promise<{ hospitals: number; sent: number }> {
  const { month, end } = previousMonth(deps.clock.now());
  let sent = 0;
  let hospitals = 0;
  for (const hospitalId of await deps.settings.listHospitalIds()) {
    const hospital = await deps.directory.getHospital(hospitalId);
    // A deactivated hospital gets no report: its admins are signed out and refused (docs/domain.md#deactivation).
    if (!hospital || hospital.status === 'DEACTIVATED') continue;
    const admins = (
      await deps.organisation.listUsers({ hospitalId, role: 'HOSPITAL_ADMIN', status: 'ACTIVE', limit: ADMINS_MAILED })
    ).items;
    if (admins.length === 0) continue;
    // One report a hospital a month, however often the job runs (a retried rule runs it twice).
    if (!(await deps.settings.claimMonthlyReport(hospitalId, month, deps.clock.now()))) continue;
    const system: Caller = {
      userId: MONTHLY_REPORT_ACTOR.actorUserId,
      email: '',
      hospitalId,
      teamId: null,
      role: 'HOSPITAL_ADMIN',
      // The reports check VIEW_ANALYTICS (docs/roles-and-permissions.md#permission-checks): the job reads no more.
      permissions: ['VIEW_ANALYTICS'],
      firstName: MONTHLY_REPORT_ACTOR.actorName,
      lastName: '',
    };
    const reports = await getReports({ months: 1 }, system, { ...deps, clock: { now: () => end } });
    const { subject, lines } = monthlyReportLines(reports, hospital.name);
    for (const admin of admins) {
      await deps.mailer.send({
        to: admin.email,
        subject,
        text: lines.join('\n'),
        html: `<h1>${escapeHtml(lines[0]!)}</h1><ul>${lines
          .slice(1)
          .map((l) => `<li>${escapeHtml(l)}</li>`)
          .join('')}</ul>`,
        tag: 'monthly-report',
      });
      sent++;
    }
    hospitals++;
    await deps.audit.record({
      hospitalId,
      action: 'MONTHLY_REPORT_SENT',
      ...MONTHLY_REPORT_ACTOR,
      details: { month, recipients: admins.map((a) => a.id), studies: reports.perMonth[0]!.studies },
    });
  }
  return { hospitals, sent };
}
