import { Button, Card, Heading, HStack, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import type { Reports } from '#shared/schemas/api/oversight.ts';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { formatBytes, formatDateTime } from '#web/lib/format.ts';
import { saveBytes, saveText } from '#web/lib/download.ts';
import { reportPdf } from '#web/features/reports/utils/report-pdf.ts';
import { reportCsv } from '#web/features/reports/utils/report-csv.ts';
import { MonthBarChart } from '#web/features/reports/components/month-bar-chart.tsx';

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** DIAGNOSTIC → Diagnostic, FOLLOW_UP → Follow-up; statuses the same way (Complete, Failed). */
const typeLabel = (t: string) => t.charAt(0) + t.slice(1).toLowerCase().replace('_', '-');
const minutes = (m: number | null) => (m === null ? '—' : `${m} min`);
type MonthColumn = DataTableColumn<Reports['perMonth'][number]>;
type TeamColumn = DataTableColumn<Reports['byTeam'][number]>;

/** The report's figures (docs/screens.md#reports), all from the server's answer; nothing here is fixed. */
export function ReportsView({ report, hospitalName }: { report: Reports; hospitalName: string }) {
  const name = `report-${report.months}-months-${report.generatedAt.slice(0, 10)}`;
  const download = () => saveText(reportCsv(report), `${name}.csv`);
  const downloadPdf = async () => saveBytes(await reportPdf(report, hospitalName), `${name}.pdf`, 'application/pdf');
  const p = report.processingMinutes;
  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap">
        <Text color="fg.muted">
          Since {monthLabel(report.from.slice(0, 7))} · computed {formatDateTime(report.generatedAt)}
        </Text>
        <HStack>
          <Button size="sm" variant="outline" onClick={download}>
            <LuDownload /> Export CSV
          </Button>
          <Button size="sm" variant="outline" onClick={() => void downloadPdf()}>
            <LuDownload /> Export PDF
          </Button>
        </HStack>
      </HStack>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        <Stat.Root borderWidth="1px" borderRadius="md" p="4">
          <Stat.Label>Studies</Stat.Label>
          <Stat.ValueText>{report.totals.studies}</Stat.ValueText>
        </Stat.Root>
        <Stat.Root borderWidth="1px" borderRadius="md" p="4">
          <Stat.Label>Storage Added</Stat.Label>
          <Stat.ValueText>{formatBytes(report.totals.storageBytes)}</Stat.ValueText>
        </Stat.Root>
        <Stat.Root borderWidth="1px" borderRadius="md" p="4">
          <Stat.Label>Active Users</Stat.Label>
          <Stat.ValueText>{report.totals.activeUsers}</Stat.ValueText>
        </Stat.Root>
        <Stat.Root borderWidth="1px" borderRadius="md" p="4">
          <Stat.Label>Processing Time (median)</Stat.Label>
          <Stat.ValueText>{minutes(p.p50)}</Stat.ValueText>
          <Stat.HelpText as="dd">
            p90 {minutes(p.p90)} · p99 {minutes(p.p99)} · {p.completed} completed
          </Stat.HelpText>
        </Stat.Root>
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <Card.Root>
          <Card.Header>
            <Heading size="md">Studies per Month</Heading>
          </Card.Header>
          <Card.Body>
            <MonthBarChart
              label="Studies per month"
              bars={report.perMonth.map((m) => ({ month: monthLabel(m.month), value: m.studies }))}
            />
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Header>
            <Heading size="md">Storage Growth</Heading>
          </Card.Header>
          <Card.Body>
            <MonthBarChart
              label="Storage at the end of each month"
              color="teal.solid"
              format={formatBytes}
              bars={report.perMonth.map((m) => ({
                month: monthLabel(m.month),
                value: m.storageTotalBytes,
                display: formatBytes(m.storageTotalBytes),
              }))}
            />
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Studies by Type and Status</Heading>
        </Card.Header>
        <Card.Body>
          <DataTable
            aria-label="Studies per month by type and status"
            frameProps={{ overflowX: 'auto' }}
            rows={report.perMonth}
            rowKey={(m) => m.month}
            columns={[
              {
                key: 'month',
                header: 'Month',
                cell: (m) => monthLabel(m.month),
                cellProps: { whiteSpace: 'nowrap' },
              },
              ...STUDY_TYPES.map((t): MonthColumn => ({
                key: `type-${t}`,
                header: typeLabel(t),
                cell: (m) => m.byType[t],
              })),
              ...DATASET_STATUSES.map((st): MonthColumn => ({
                key: `status-${st}`,
                header: typeLabel(st),
                cell: (m) => m.byStatus[st],
              })),
              { key: 'activeUsers', header: 'Active Users', cell: (m) => m.activeUsers },
            ]}
          />
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Studies by Team</Heading>
        </Card.Header>
        <Card.Body>
          <DataTable
            aria-label="Studies by team"
            rows={report.byTeam}
            rowKey={(t) => t.teamId ?? '-'}
            empty={<Text color="fg.muted">No studies in this period.</Text>}
            columns={[
              { key: 'team', header: 'Team', cell: (t) => t.teamName },
              ...report.perMonth.map((m, i): TeamColumn => ({
                key: m.month,
                header: monthLabel(m.month),
                headerProps: { whiteSpace: 'nowrap' },
                cell: (t) => t.perMonth[i],
              })),
              { key: 'studies', header: 'Studies', cell: (t) => t.studies },
              { key: 'completed', header: 'Completed', cell: (t) => t.completed },
              { key: 'failed', header: 'Failed', cell: (t) => t.failed },
            ]}
          />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
