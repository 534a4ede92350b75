import { Badge, Button, Card, Heading, HStack, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import type { Dashboard, DashboardActivity, DashboardStat } from '#shared/schemas/api/dashboard.ts';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { paths } from '#web/config/paths.ts';
import { formatBytes } from '#web/lib/format.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

export function statText(stat: DashboardStat): string {
  if (stat.format === 'bytes') return formatBytes(stat.value);
  if (stat.format === 'dollars') return dollars.format(stat.value);
  return stat.value.toLocaleString('en-US');
}

const HOSPITAL_COLUMNS: DataTableColumn<Dashboard['hospitals'][number]>[] = [
  { key: 'name', header: 'Hospital', cell: (h) => h.name },
  { key: 'location', header: 'Location', cell: (h) => h.location },
  { key: 'plan', header: 'Plan', cell: (h) => h.plan ?? '' },
  { key: 'users', header: 'Users', cell: (h) => h.users },
  { key: 'patients', header: 'Patients', cell: (h) => h.patients },
  { key: 'revenue', header: 'Revenue', cell: (h) => dollars.format(h.revenue) },
  { key: 'status', header: 'Status', cell: (h) => h.status },
];

const STATUS_WORDS: Record<string, string> = {
  UPLOADING: 'Queued',
  ANONYMIZING: 'Processing',
  CLASSIFYING: 'Processing',
  PROCESSING: 'Processing',
};

/** The server's dashboard figures (docs/screens.md#dashboard): stat cards, pipeline, jobs, activity, members, hospitals. */
export function DashboardView({ dashboard }: { dashboard: Dashboard }) {
  const lead = dashboard.role === 'TEAM_LEAD';
  return (
    <Stack gap="6">
      {dashboard.stats.length > 0 && (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: dashboard.stats.length }} gap="4">
          {dashboard.stats.map((stat) => (
            <Stat.Root key={stat.label} borderWidth="1px" rounded="md" p="4" data-testid="stat-card">
              <Stat.Label>{stat.label}</Stat.Label>
              <Stat.ValueText>{statText(stat)}</Stat.ValueText>
              {stat.subtitle && <Stat.HelpText as="dd">{stat.subtitle}</Stat.HelpText>}
            </Stat.Root>
          ))}
        </SimpleGrid>
      )}
      {dashboard.pipeline && (
        <Card.Root>
          <Card.Header>
            <Heading size="md">{lead ? 'Processing Queue' : 'Processing Pipeline Status'}</Heading>
          </Card.Header>
          <Card.Body>
            <SimpleGrid columns={{ base: 2, md: lead ? 4 : 5 }} gap="4" aria-label="Pipeline status counts">
              {[
                { label: 'Queued', value: dashboard.pipeline.queued },
                { label: 'Processing', value: dashboard.pipeline.processing },
                { label: 'Completed', value: dashboard.pipeline.completed },
                { label: 'Failed', value: dashboard.pipeline.failed },
                ...(lead ? [] : [{ label: 'Total', value: dashboard.pipeline.total }]),
              ].map((c) => (
                <Stat.Root key={c.label} borderWidth="1px" rounded="md" p="3">
                  <Stat.Label>{c.label}</Stat.Label>
                  <Stat.ValueText data-testid={`pipeline-${c.label.toLowerCase()}`}>{c.value}</Stat.ValueText>
                </Stat.Root>
              ))}
            </SimpleGrid>
            {lead && dashboard.currentJobs.length > 0 && (
              <Stack gap="2" mt="4" aria-label="Current jobs">
                {dashboard.currentJobs.map((job) => (
                  <HStack key={job.id} justify="space-between" borderWidth="1px" rounded="md" p="2">
                    <Link to={paths.dataset.getHref(job.id)}>
                      {job.studyType} · {job.ownerName}
                    </Link>
                    <Badge>{STATUS_WORDS[job.status] ?? job.status}</Badge>
                  </HStack>
                ))}
                {dashboard.moreJobs > 0 && (
                  <Button asChild variant="outline" size="sm">
                    <Link to={paths.datasets.getHref()}>View All ({dashboard.moreJobs} more)</Link>
                  </Button>
                )}
              </Stack>
            )}
          </Card.Body>
        </Card.Root>
      )}
      {lead && (
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <ActivityCard title="Team Activity" items={dashboard.teamActivity} empty="No recent team activity" />
          <Card.Root>
            <Card.Header>
              <Heading size="md">Member Performance</Heading>
            </Card.Header>
            <Card.Body>
              {dashboard.members.length === 0 ? (
                <Text color="fg.muted">No team members yet</Text>
              ) : (
                <Stack gap="2">
                  {dashboard.members.map((m) => (
                    <HStack key={m.id} justify="space-between">
                      <Text>{m.name}</Text>
                      <Text fontSize="sm" color="fg.muted">
                        {m.lastLogin ? `Last sign-in ${new Date(m.lastLogin).toLocaleDateString()}` : m.status}
                      </Text>
                    </HStack>
                  ))}
                </Stack>
              )}
            </Card.Body>
          </Card.Root>
        </SimpleGrid>
      )}
      <ActivityCard title="Recent Activity" items={dashboard.recentActivity} empty="No recent activity to display" />
      {dashboard.hospitals.length > 0 && (
        <Card.Root>
          <Card.Header>
            <Heading size="md">Hospital Performance</Heading>
          </Card.Header>
          <Card.Body overflowX="auto">
            <DataTable
              aria-label="Hospital performance"
              rows={dashboard.hospitals}
              rowKey={(h) => h.id}
              columns={HOSPITAL_COLUMNS}
            />
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}

const actionWords = (action: string) => action.toLowerCase().replace(/_/g, ' ');

function ActivityCard({ title, items, empty }: { title: string; items: DashboardActivity[]; empty: string }) {
  return (
    <Card.Root>
      <Card.Header>
        <Heading size="md">{title}</Heading>
      </Card.Header>
      <Card.Body>
        {items.length === 0 ? (
          <Text color="fg.muted">{empty}</Text>
        ) : (
          <Stack gap="2" aria-label={title}>
            {items.map((a) => (
              <HStack key={a.id} justify="space-between">
                <Text>
                  {a.user} · {actionWords(a.action)}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {new Date(a.at).toLocaleString()}
                </Text>
              </HStack>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
