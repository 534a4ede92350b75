import { Box, Button, Card, Heading, HStack, SimpleGrid, Stack, Stat, Table, Text } from '@chakra-ui/react';
import { LuDownload } from 'react-icons/lu';
import { DATASET_STATUSES, STUDY_TYPES } from '#shared/vocabulary/datasets.ts';
import type { Reports } from '#shared/schemas/api/oversight.ts';
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
          <Stat.HelpText>
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
          <Box overflowX="auto">
            <Table.Root size="sm" aria-label="Studies per month by type and status">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Month</Table.ColumnHeader>
                  {STUDY_TYPES.map((t) => (
                    <Table.ColumnHeader key={t}>{typeLabel(t)}</Table.ColumnHeader>
                  ))}
                  {DATASET_STATUSES.map((s) => (
                    <Table.ColumnHeader key={s}>{typeLabel(s)}</Table.ColumnHeader>
                  ))}
                  <Table.ColumnHeader>Active Users</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {report.perMonth.map((m) => (
                  <Table.Row key={m.month}>
                    <Table.Cell whiteSpace="nowrap">{monthLabel(m.month)}</Table.Cell>
                    {STUDY_TYPES.map((t) => (
                      <Table.Cell key={t}>{m.byType[t]}</Table.Cell>
                    ))}
                    {DATASET_STATUSES.map((s) => (
                      <Table.Cell key={s}>{m.byStatus[s]}</Table.Cell>
                    ))}
                    <Table.Cell>{m.activeUsers}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Studies by Team</Heading>
        </Card.Header>
        <Card.Body>
          {report.byTeam.length === 0 ? (
            <Text color="fg.muted">No studies in this period.</Text>
          ) : (
            <Table.Root size="sm" aria-label="Studies by team">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Team</Table.ColumnHeader>
                  {report.perMonth.map((m) => (
                    <Table.ColumnHeader key={m.month} whiteSpace="nowrap">
                      {monthLabel(m.month)}
                    </Table.ColumnHeader>
                  ))}
                  <Table.ColumnHeader>Studies</Table.ColumnHeader>
                  <Table.ColumnHeader>Completed</Table.ColumnHeader>
                  <Table.ColumnHeader>Failed</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {report.byTeam.map((t) => (
                  <Table.Row key={t.teamId ?? '-'}>
                    <Table.Cell>{t.teamName}</Table.Cell>
                    {t.perMonth.map((n, i) => (
                      <Table.Cell key={report.perMonth[i]?.month ?? i}>{n}</Table.Cell>
                    ))}
                    <Table.Cell>{t.studies}</Table.Cell>
                    <Table.Cell>{t.completed}</Table.Cell>
                    <Table.Cell>{t.failed}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
