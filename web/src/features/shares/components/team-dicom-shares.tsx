import { Badge, Table, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useTeamDicomShares } from '#web/features/shares/api/shares-api.ts';

/** The team page's DICOM shares tab (docs/screens.md#team-dicom-shares): shares of the team's datasets. */
export function TeamDicomShares({ teamId }: { teamId: string }) {
  const { data, error, isLoading } = useTeamDicomShares(teamId);
  if (isLoading) return <PageSpinner />;
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (!data || data.items.length === 0)
    return <EmptyBlock title="No DICOM shares" description="Datasets of this team shared with colleagues show here." />;
  return (
    <Table.Root size="sm" data-testid="team-dicom-shares">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Dataset</Table.ColumnHeader>
          <Table.ColumnHeader>Shared with</Table.ColumnHeader>
          <Table.ColumnHeader>Permissions</Table.ColumnHeader>
          <Table.ColumnHeader>Shared by</Table.ColumnHeader>
          <Table.ColumnHeader>Date</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {data.items.map((s) => (
          <Table.Row key={s.id}>
            <Table.Cell>
              <Link to={paths.dataset.getHref(s.datasetId)}>{s.datasetId}</Link>
            </Table.Cell>
            <Table.Cell>
              {s.recipientName} <Badge>{s.recipientType === 'TEAM' ? 'Team' : 'Member'}</Badge>
            </Table.Cell>
            <Table.Cell>
              <Text>{s.permissions.join(', ')}</Text>
            </Table.Cell>
            <Table.Cell>{s.createdByName}</Table.Cell>
            <Table.Cell>{formatDateTime(s.createdAt)}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
