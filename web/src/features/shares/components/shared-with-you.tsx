import { Badge, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { paths } from '#web/config/paths.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useSharedWithMe } from '#web/features/shares/api/shares-api.ts';

type Props = {
  /** Where a study's link leads: the dataset page, or for a guest (who has no dataset pages) the viewer. */
  linkTo?: (datasetId: string) => string;
  /** Shown, with this text, when nothing is shared (a guest's home); otherwise the card is left out. */
  emptyText?: string;
};

/**
 * Datasets colleagues shared with the user or their team, marked "Shared with you" (docs/screens.md#datasets-page);
 * a guest's home lists them too (docs/screens.md#dashboard).
 */
export function SharedWithYou({ linkTo = paths.dataset.getHref, emptyText }: Props = {}) {
  const { data } = useSharedWithMe();
  if (!data || (data.items.length === 0 && emptyText === undefined)) return null;
  return (
    <Card.Root data-testid="shared-with-you">
      <Card.Header>
        <Heading size="md">Shared with you</Heading>
      </Card.Header>
      <Card.Body>
        {data.items.length === 0 ? (
          <Text color="fg.muted">{emptyText}</Text>
        ) : (
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
                    <Link to={linkTo(d.id)}>{d.studyDescription}</Link>
                  </Stack>
                ),
              },
              { key: 'patient', cell: (d) => d.patientAlias },
              { key: 'owner', cell: (d) => d.ownerName },
              { key: 'date', cell: (d) => formatDateTime(d.createdAt) },
              { key: 'badge', cell: () => <Badge colorPalette="purple">Shared with you</Badge> },
            ]}
          />
        )}
      </Card.Body>
    </Card.Root>
  );
}
