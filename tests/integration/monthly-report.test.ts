import { describe, expect, it } from 'vitest';
import { sendMonthlyReports } from '#shared/domain/reports/monthly-report.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * The monthly report through the DynamoDB adapters (docs/domain.md#monthly-report): a study created this month is in
 * the report the job sends on the first of next month, to the hospital's admin, with no patient data.
 */
const MEMBER = 'member@northside.demo.local';
const ADMIN = 'admin@northside.demo.local';
const h = useHarness();

describe('the scheduled monthly report', () => {
  it("e-mails the hospital admins the month's figures and audits the sending", async () => {
    const body = newDatasetBody();
    expect((await h.call('POST', '/api/datasets', { as: MEMBER, body })).status).toBe(201);
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6)).toISOString();
    const before = h.mailbox.length;
    const result = await sendMonthlyReports({ ...h.deps, clock: { now: () => nextMonth } });
    expect(result.sent).toBeGreaterThanOrEqual(1);
    const mails = h.mailbox.slice(before).filter((m) => m.tag === 'monthly-report');
    const toAdmin = mails.find((m) => m.to === ADMIN && m.subject.startsWith('Northside General'));
    expect(toAdmin?.text).toMatch(/Studies: [1-9]/);
    // The free text a user typed about the patient and the study, and the MRN.
    const typed = body as Record<string, unknown>;
    for (const key of ['mrn', 'studyDescription', 'clinicalIndication', 'orderingPhysician'])
      if (typeof typed[key] === 'string') expect(toAdmin!.text + toAdmin!.html).not.toContain(typed[key]);
    const page = await h.deps.audit.search({ hospitalId: 'hosp-northside', action: 'MONTHLY_REPORT_SENT', limit: 10 });
    expect(page.items[0]).toMatchObject({ actorName: 'Monthly report', action: 'MONTHLY_REPORT_SENT' });
  });
});
