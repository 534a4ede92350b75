import { Badge, Card, Heading, Stack, Table } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
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
        <Table.Root size="sm">
          <Table.Body>
            {data.items.map((d) => (
              <Table.Row key={d.id}>
                <Table.Cell>
                  <Stack gap="0">
                    <Link to={paths.dataset.getHref(d.id)}>{d.studyDescription}</Link>
                  </Stack>
                </Table.Cell>
                <Table.Cell>{d.patientAlias}</Table.Cell>
                <Table.Cell>{d.ownerName}</Table.Cell>
                <Table.Cell>{formatDateTime(d.createdAt)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette="purple">Shared with you</Badge>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Card.Body>
    </Card.Root>
  );
}
