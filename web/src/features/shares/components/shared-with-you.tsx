import { Badge, Card, Heading, Stack } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { paths } from '#web/config/paths.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSharedWithMe } from '#web/features/shares/api/shares-api.ts';

/** Datasets colleagues shared with the user or their team, marked "Shared with you" (docs/screens.md#datasets-page). */
export function SharedWithYou() {
  const { data } = useSharedWithMe();
  if (!data || data.items.length === 0) return null;
  return (
    <Card.Root data-testid="shared-with-you">
      <Card.Header>
        <Heading size="md">Shared with you</Heading>
      </Card.Header>
      <Card.Body>
        <DataTable
          aria-label="Shared with you"
          hideHeader
          rows={data.items}
          rowKey={(d) => d.id}
          columns={[
            {
              key: 'study',
              cell: (d) => (
                <Stack gap="0">
                  <Link to={paths.dataset.getHref(d.id)}>{d.studyDescription}</Link>
                </Stack>
              ),
            },
            { key: 'patient', cell: (d) => d.patientAlias },
            { key: 'owner', cell: (d) => d.ownerName },
            { key: 'date', cell: (d) => formatDateTime(d.createdAt) },
            { key: 'badge', cell: () => <Badge colorPalette="purple">Shared with you</Badge> },
          ]}
        />
      </Card.Body>
    </Card.Root>
  );
}
