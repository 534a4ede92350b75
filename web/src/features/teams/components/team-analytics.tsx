import { Card, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '#shared/schemas/api/team-analytics.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { StatCard } from '#web/components/ui/stat-card.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes } from '#web/lib/format.ts';
import { useTeamAnalytics } from '#web/features/teams/api/team-analytics.ts';

export const PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  LAST_7_DAYS: 'Last 7 days',
  LAST_30_DAYS: 'Last 30 days',
  LAST_90_DAYS: 'Last 90 days',
  LAST_YEAR: 'Last year',
};

const typeLabel = (t: string) => t.charAt(0) + t.slice(1).toLowerCase().replace(/_/g, ' ');

/**
 * The team page's Analytics tab (docs/screens.md#teams-page): the server's figures for a period (the last 30 days
 * first): datasets, completions, failures, storage added, active members, datasets by type and by member, per day.
 */
export function TeamAnalyticsTab({ teamId }: { teamId: string }) {
  const [period, setPeriod] = useState<AnalyticsPeriod>('LAST_30_DAYS');
  const { data, error } = useTeamAnalytics(teamId, period);
  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap">
        <Heading size="lg">Team Analytics</Heading>
        <Select
          size="sm"
          width="48"
          aria-label="Period"
          value={period}
          onChange={(v) => setPeriod(v as AnalyticsPeriod)}
          options={ANALYTICS_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
        />
      </HStack>
      {error && <ErrorBox message={errorMessage(error)} />}
      {!data && !error && <Text color="fg.muted">Loading...</Text>}
      {data && (
        <>
          <SimpleGrid columns={{ base: 2, md: 5 }} gap="4">
            <StatCard label="Datasets" value={data.totalDatasets} testId="analytics-datasets" />
            <StatCard label="Completed" value={data.uploadsCompleted} testId="analytics-completed" />
            <StatCard label="Failed" value={data.failed} testId="analytics-failed" />
            <StatCard label="Storage Added" value={formatBytes(data.storageAddedBytes)} />
            <StatCard
              label="Active Members"
              value={`${data.activeMembers} / ${data.members}`}
              testId="analytics-active-members"
            />
          </SimpleGrid>
          {data.truncated && (
            <Text fontSize="sm" color="fg.muted">
              The figures are of the newest datasets of the period; a shorter period counts every one.
            </Text>
          )}
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Card.Root>
              <Card.Header>
                <Heading size="md">Datasets by Type</Heading>
              </Card.Header>
              <Card.Body>
                <DataTable
                  aria-label="Datasets by type"
                  rows={Object.entries(data.datasetsByType)}
                  rowKey={([t]) => t}
                  columns={[
                    { key: 'type', header: 'Type', cell: ([t]) => typeLabel(t) },
                    { key: 'count', header: 'Datasets', cell: ([, n]) => n, align: 'end' },
                  ]}
                />
              </Card.Body>
            </Card.Root>
            <Card.Root>
              <Card.Header>
                <Heading size="md">Member Activity</Heading>
              </Card.Header>
              <Card.Body>
                <DataTable
                  aria-label="Datasets by member"
                  rows={data.memberActivity}
                  rowKey={(m) => m.name}
                  empty="No datasets in this period"
                  columns={[
                    { key: 'name', header: 'Member', cell: (m) => m.name },
                    { key: 'datasets', header: 'Datasets', cell: (m) => m.datasets, align: 'end' },
                  ]}
                />
              </Card.Body>
            </Card.Root>
          </SimpleGrid>
          <Card.Root>
            <Card.Header>
              <Heading size="md">Activity Timeline</Heading>
            </Card.Header>
            <Card.Body>
              <DataTable
                aria-label="Datasets per day"
                frameProps={{ maxH: '72', overflowY: 'auto' }}
                rows={[...data.timeline].reverse()}
                rowKey={(b) => b.bucket}
                columns={[
                  { key: 'bucket', header: data.period === 'LAST_YEAR' ? 'Month' : 'Day', cell: (b) => b.bucket },
                  { key: 'datasets', header: 'Datasets', cell: (b) => b.datasets, align: 'end' },
                ]}
              />
            </Card.Body>
          </Card.Root>
        </>
      )}
    </Stack>
  );
}
