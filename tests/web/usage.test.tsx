// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import Papa from 'papaparse';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageSchema, type Usage } from '#shared/schemas/api/usage.ts';
import { system } from '#web/components/ui/provider.tsx';
import { UsageView } from '#web/features/usage/components/usage-view.tsx';
import { invoiceCsv, invoicePdf } from '#web/features/usage/utils/invoice.ts';

const GB = 1024 ** 3;
const USAGE: Usage = UsageSchema.parse({
  month: '2026-02',
  generatedAt: '2026-02-10T00:00:00.000Z',
  hospitals: [
    {
      hospitalId: 'h1',
      hospitalName: 'Northside General',
      plan: 'PRO',
      storage: { used: 4300 * GB, limit: 5120 * GB, percent: 84, health: 'good' },
      compute: { used: 7200, limit: 8_640_000, percent: 0.1, health: 'excellent', gbSeconds: 28_800, runs: 3 },
      badge: 'Healthy Usage',
      days: [
        {
          day: '2026-02-03',
          runs: 3,
          computeSeconds: 7200,
          gbSeconds: 28_800,
          storageBytesAdded: 2048,
          signInAttempts: 4,
          signIns: 3,
        },
      ],
      teams: [
        {
          teamId: 't1',
          teamName: '=Neuro',
          storageUsedBytes: 2 * GB,
          days: [
            {
              day: '2026-02-03',
              runs: 2,
              computeSeconds: 3600,
              gbSeconds: 14_400,
              storageBytesAdded: 1024,
              signInAttempts: 2,
              signIns: 2,
            },
          ],
        },
      ],
      nextBillDate: '2026-03-01',
      daysToNextBill: 19,
      invoice: {
        number: 'h1-2026-02',
        hospitalId: 'h1',
        hospitalName: 'Northside General',
        month: '2026-02',
        plan: 'PRO',
        pricePerUser: 25,
        users: 48,
        amount: 1200,
        issuedAt: '2026-03-01',
        dueDate: '2026-03-01',
      },
    },
  ],
});

afterEach(cleanup);

describe('usage and billing', () => {
  it("shows the server's meters, badge, next bill and teams", () => {
    render(
      <ChakraProvider value={system}>
        <UsageView usage={USAGE} />
      </ChakraProvider>,
    );
    expect(screen.getByText('Healthy Usage')).toBeTruthy();
    expect(screen.getByTestId('meter-storage').textContent).toContain('4.2 TB of 5 TB (84%)');
    expect(screen.getByTestId('next-bill').textContent).toBe('$1,200.00');
    expect(screen.getByText(/in 19 days/)).toBeTruthy();
    const teams = screen.getByRole('table', { name: 'Usage per team, Northside General' });
    expect(within(teams).getByText('=Neuro')).toBeTruthy();
    expect(within(teams).getByText('1.0 h')).toBeTruthy();
    const days = screen.getByRole('table', { name: 'Usage per day, Northside General' });
    expect(within(days).getByText('+2 KB')).toBeTruthy();
  });

  it('exports the invoice as CSV with formula cells escaped, and as a PDF', async () => {
    const rows = Papa.parse<string[]>(invoiceCsv({ ...USAGE.hospitals[0]!.invoice, hospitalName: '=X' }).trim()).data;
    expect(rows).toContainEqual(['Amount', '$1200.00']);
    expect(rows).toContainEqual(['Hospital', "'=X"]);
    const pdf = await PDFDocument.load(await invoicePdf(USAGE.hospitals[0]!.invoice));
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe('Invoice h1-2026-02');
  });
});
