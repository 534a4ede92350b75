import { Badge, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { DataTable } from '#web/components/ui/data-table.tsx';
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
    <DataTable
      aria-label="DICOM shares"
      data-testid="team-dicom-shares"
      rows={data.items}
      rowKey={(s) => s.id}
      columns={[
        {
          key: 'dataset',
          header: 'Dataset',
          cell: (s) => <Link to={paths.dataset.getHref(s.datasetId)}>{s.datasetId}</Link>,
        },
        {
          key: 'recipient',
          header: 'Shared with',
          cell: (s) => (
            <>
              {s.recipientName} <Badge>{s.recipientType === 'TEAM' ? 'Team' : 'Member'}</Badge>
            </>
          ),
        },
        { key: 'permissions', header: 'Permissions', cell: (s) => <Text>{s.permissions.join(', ')}</Text> },
        { key: 'by', header: 'Shared by', cell: (s) => s.createdByName },
        { key: 'date', header: 'Date', cell: (s) => formatDateTime(s.createdAt) },
      ]}
    />
  );
}
