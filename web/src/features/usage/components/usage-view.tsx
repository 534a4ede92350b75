import { Badge, Button, Card, Heading, HStack, Progress, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import type { HospitalUsage, Usage, UsageHealth } from '#shared/schemas/api/usage.ts';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { saveBytes, saveText } from '#web/lib/download.ts';
import { formatBytes } from '#web/lib/format.ts';
import { useUsage } from '#web/features/usage/api/usage.ts';
import { invoiceCsv, invoicePdf } from '#web/features/usage/utils/invoice.ts';

const HEALTH_COLOR: Record<UsageHealth, string> = {
  excellent: 'green',
  good: 'blue',
  warning: 'orange',
  overage: 'red',
};
const BADGE_COLOR: Record<HospitalUsage['badge'], string> = {
  'Overage Detected': 'red',
  'Approaching Limits': 'orange',
  'Healthy Usage': 'green',
};

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const hours = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;

const TEAM_COLUMNS: DataTableColumn<HospitalUsage['teams'][number]>[] = [
  { key: 'team', header: 'Team', cell: (t) => t.teamName },
  { key: 'storage', header: 'Storage', cell: (t) => formatBytes(t.storageUsedBytes) },
  { key: 'runs', header: 'Runs', cell: (t) => t.days.reduce((n, d) => n + d.runs, 0) },
  { key: 'compute', header: 'Compute', cell: (t) => hours(t.days.reduce((n, d) => n + d.computeSeconds, 0)) },
];
const DAY_COLUMNS: DataTableColumn<HospitalUsage['days'][number]>[] = [
  { key: 'day', header: 'Day', cell: (d) => d.day },
  { key: 'runs', header: 'Runs', cell: (d) => d.runs },
  { key: 'compute', header: 'Compute', cell: (d) => hours(d.computeSeconds) },
  { key: 'gbSeconds', header: 'GB-seconds', cell: (d) => Math.round(d.gbSeconds) },
  {
    key: 'storageAdded',
    header: 'Storage added',
    cell: (d) => `${d.storageBytesAdded < 0 ? '−' : '+'}${formatBytes(Math.abs(d.storageBytesAdded))}`,
  },
];

/** Usage & Billing (docs/screens.md#usage-and-billing): the server's figures for each hospital the caller may see. */
export function UsagePage() {
  const { data, error, isLoading } = useUsage();
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (isLoading || !data)
    return (
      <Text fontSize="sm" color="fg.muted">
        Loading...
      </Text>
    );
  return <UsageView usage={data} />;
}

export function UsageView({ usage }: { usage: Usage }) {
  return (
    <Stack gap="8">
      <Heading size="2xl">Usage & Billing</Heading>
      {usage.hospitals.map((h) => (
        <HospitalUsageCard key={h.hospitalId} usage={h} />
      ))}
    </Stack>
  );
}

function Meter({
  label,
  text,
  percent,
  health,
}: {
  label: string;
  text: string;
  percent: number;
  health: UsageHealth;
}) {
  return (
    <Stack gap="1" data-testid={`meter-${label.toLowerCase()}`}>
      <HStack justify="space-between">
        <Text fontWeight="medium">{label}</Text>
        <Badge colorPalette={HEALTH_COLOR[health]}>{health}</Badge>
      </HStack>
      <Progress.Root value={Math.min(100, percent)} colorPalette={HEALTH_COLOR[health]} aria-label={label}>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text fontSize="sm" color="fg.muted">
        {text} ({percent}%)
      </Text>
    </Stack>
  );
}

function HospitalUsageCard({ usage: h }: { usage: HospitalUsage }) {
  const name = `invoice-${h.invoice.number}`;
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading size="lg">{h.hospitalName}</Heading>
          <Badge colorPalette={BADGE_COLOR[h.badge]} size="lg">
            {h.badge}
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="6">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
            <Meter
              label="Storage"
              text={`${formatBytes(h.storage.used)} of ${formatBytes(h.storage.limit)}`}
              percent={h.storage.percent}
              health={h.storage.health}
            />
            <Meter
              label="Compute"
              text={`${hours(h.compute.used)} of ${hours(h.compute.limit)} · ${h.compute.runs} runs`}
              percent={h.compute.percent}
              health={h.compute.health}
            />
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
            <Stat.Root borderWidth="1px" rounded="md" p="3">
              <Stat.Label>Current Plan</Stat.Label>
              <Stat.ValueText>{h.plan ?? '-'}</Stat.ValueText>
            </Stat.Root>
            <Stat.Root borderWidth="1px" rounded="md" p="3">
              <Stat.Label>Next Bill</Stat.Label>
              <Stat.ValueText data-testid="next-bill">{dollars.format(h.invoice.amount)}</Stat.ValueText>
              <Stat.HelpText as="dd">
                {h.nextBillDate} · in {h.daysToNextBill} days
              </Stat.HelpText>
            </Stat.Root>
            <Stack gap="2" justify="center">
              <Button size="sm" variant="outline" onClick={() => saveText(invoiceCsv(h.invoice), `${name}.csv`)}>
                Download invoice (CSV)
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => void invoicePdf(h.invoice).then((b) => saveBytes(b, `${name}.pdf`, 'application/pdf'))}
              >
                Download invoice (PDF)
              </Button>
            </Stack>
          </SimpleGrid>
          <DataTable
            aria-label={`Usage per team, ${h.hospitalName}`}
            rows={h.teams}
            rowKey={(t) => t.teamId}
            columns={TEAM_COLUMNS}
          />
          {h.days.length > 0 && (
            <DataTable
              aria-label={`Usage per day, ${h.hospitalName}`}
              rows={h.days}
              rowKey={(d) => d.day}
              columns={DAY_COLUMNS}
            />
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
