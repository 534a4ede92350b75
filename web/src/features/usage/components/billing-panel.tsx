import { Badge, Button, Card, Heading, HStack, SimpleGrid, Stat, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import type { HospitalUsage } from '#shared/schemas/api/usage.ts';
import { useUsage } from '#web/features/usage/api/usage.ts';
import { formatBytes } from '#web/lib/format.ts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const BADGE_COLOR: Record<HospitalUsage['badge'], string> = {
  'Overage Detected': 'red',
  'Approaching Limits': 'orange',
  'Healthy Usage': 'green',
};

/**
 * The billing panel of the hospital admin's home (docs/screens.md#hospital-admin-area): the plan, the next bill and
 * the storage in use from GET /api/usage, the same figures as Usage & Billing, which `detailsHref` opens.
 */
export function BillingPanel({ detailsHref }: { detailsHref: string }) {
  const { data } = useUsage();
  const h = data?.hospitals[0];
  return (
    <Card.Root data-testid="billing-panel">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading size="md">Billing</Heading>
          {h && <Badge colorPalette={BADGE_COLOR[h.badge]}>{h.badge}</Badge>}
        </HStack>
      </Card.Header>
      <Card.Body>
        {!h ? (
          <Text color="fg.muted">Loading...</Text>
        ) : (
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
            <Stat.Root>
              <Stat.Label>Current Plan</Stat.Label>
              <Stat.ValueText>{h.plan ?? '-'}</Stat.ValueText>
            </Stat.Root>
            <Stat.Root>
              <Stat.Label>Next Bill</Stat.Label>
              <Stat.ValueText data-testid="billing-next-bill">{dollars.format(h.invoice.amount)}</Stat.ValueText>
              <Stat.HelpText as="dd">{h.nextBillDate}</Stat.HelpText>
            </Stat.Root>
            <Stat.Root>
              <Stat.Label>Storage</Stat.Label>
              <Stat.ValueText>{formatBytes(h.storage.used)}</Stat.ValueText>
              <Stat.HelpText as="dd">{`${h.storage.percent}% of ${formatBytes(h.storage.limit)}`}</Stat.HelpText>
            </Stat.Root>
          </SimpleGrid>
        )}
      </Card.Body>
      <Card.Footer>
        <Button asChild size="sm" variant="outline">
          <Link to={detailsHref}>Usage & Billing</Link>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
