// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import { ReportsSchema, type Reports } from '#shared/schemas/api/oversight.ts';
import { system } from '#web/components/ui/provider.tsx';
import { actionLabel, toAuditFilter } from '#web/features/compliance/utils/audit-filters.ts';
import { ReportsView } from '#web/features/reports/components/reports-view.tsx';
import { reportCsv } from '#web/features/reports/utils/report-csv.ts';
import { reportPdf } from '#web/features/reports/utils/report-pdf.ts';
import { PDFDocument } from 'pdf-lib';

const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

const REPORT: Reports = ReportsSchema.parse({
  hospitalId: 'hosp-northside',
  months: 3,
  from: '2025-12-01T00:00:00.000Z',
  generatedAt: '2026-02-10T12:00:00.000Z',
  totals: { studies: 3, storageBytes: 3 * 1024 * 1024, activeUsers: 2 },
  perMonth: [
    {
      month: '2025-12',
      studies: 0,
      byType: zero(STUDY_TYPES),
      byStatus: zero(DATASET_STATUSES),
      storageAddedBytes: 0,
      storageTotalBytes: 0,
      activeUsers: 0,
    },
    {
      month: '2026-01',
      studies: 2,
      byType: { ...zero(STUDY_TYPES), DIAGNOSTIC: 2 },
      byStatus: { ...zero(DATASET_STATUSES), COMPLETE: 1, FAILED: 1 },
      storageAddedBytes: 2 * 1024 * 1024,
      storageTotalBytes: 2 * 1024 * 1024,
      activeUsers: 2,
    },
    {
      month: '2026-02',
      studies: 1,
      byType: { ...zero(STUDY_TYPES), RESEARCH: 1 },
      byStatus: { ...zero(DATASET_STATUSES), COMPLETE: 1 },
      storageAddedBytes: 1024 * 1024,
      storageTotalBytes: 3 * 1024 * 1024,
      activeUsers: 1,
    },
  ],
  byTeam: [{ teamId: 't1', teamName: '=Neuro', studies: 3, completed: 2, failed: 1, perMonth: [0, 2, 1] }],
  processingMinutes: { completed: 2, p50: 12.5, p90: 40, p99: 40 },
});

afterEach(cleanup);

describe('reports', () => {
  it('shows the server figures: totals, bars per month readable as text, and teams', () => {
    render(
      <ChakraProvider value={system}>
        <ReportsView report={REPORT} hospitalName="Northside General" />
      </ChakraProvider>,
    );
    expect(screen.getByText('12.5 min')).toBeTruthy();
    const studies = screen.getByRole('list', { name: 'Studies per month' });
    expect(
      within(studies)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/: 0$/), expect.stringMatching(/: 2$/), expect.stringMatching(/: 1$/)]);
    expect(screen.getByRole('list', { name: 'Storage at the end of each month' }).textContent).toContain('3 MB');
    expect(within(screen.getByRole('table', { name: 'Studies by team' })).getByText('=Neuro')).toBeTruthy();
  });

  it('exports the figures as CSV sections, with formula-like cells escaped', () => {
    const [months, teams, processing] = reportCsv(REPORT).trim().split('\r\n\r\n');
    const rows = Papa.parse<string[]>(months!.trim()).data;
    expect(rows[0]!.slice(0, 2)).toEqual(['Month', 'Studies']);
    expect(rows.map((r) => r[0])).toEqual(['Month', '2025-12', '2026-01', '2026-02']);
    expect(teams).toContain("'=Neuro");
    expect(processing).toContain('12.5');
  });
  it('builds a PDF of the figures that a PDF reader opens', async () => {
    const bytes = await reportPdf(
      { ...REPORT, byTeam: [{ ...REPORT.byTeam[0]!, teamName: 'Neuro 神経' }] },
      'Northside',
    );
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Report: last 3 months');
  });
});

describe('audit filters', () => {
  it('drops blank fields and names actions in words', () => {
    expect(
      toAuditFilter({
        hospitalId: '',
        actor: ' u1 ',
        target: '',
        action: 'DATASET_VIEWED',
        from: '',
        to: '2026-01-31',
      }),
    ).toEqual({
      actor: 'u1',
      action: 'DATASET_VIEWED',
      to: '2026-01-31',
    });
    expect(actionLabel('ASSET_URLS_ISSUED')).toBe('Asset urls issued');
  });
});
