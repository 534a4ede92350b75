import { Badge, Button, HStack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ShareApproval } from '#shared/schemas/api/shares.ts';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { sharesApi, useShareApprovals } from '#web/features/shares/api/shares-api.ts';

/**
 * The approval queue (docs/screens.md#share-approvals, docs/domain.md#share-policy): shares waiting for a team lead
 * (their team's datasets) or a hospital admin (every one of the hospital), oldest first, each approved or refused.
 * The recipient gets nothing until it is approved.
 */
export function ShareApprovals() {
  const { data, error, isLoading, mutate } = useShareApprovals();
  const [busy, setBusy] = useState<string>();
  if (isLoading) return <PageSpinner />;
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (!data || data.items.length === 0)
    return <EmptyBlock title="No shares waiting" description="Shares that need your approval show here." />;

  const decide = async (approval: ShareApproval, decision: 'approve' | 'refuse') => {
    setBusy(approval.id);
    try {
      await (decision === 'approve' ? sharesApi.approveShare(approval.id) : sharesApi.refuseShare(approval.id));
      toaster.create({ type: 'success', title: decision === 'approve' ? 'Share approved' : 'Share refused' });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setBusy(undefined);
      await mutate();
    }
  };

  return (
    <DataTable
      aria-label="Shares waiting for approval"
      data-testid="share-approvals"
      rows={data.items}
      rowKey={(a) => a.id}
      columns={[
        {
          key: 'dataset',
          header: 'Dataset',
          cell: (a) => <Link to={paths.dataset.getHref(a.datasetId)}>{a.datasetId}</Link>,
        },
        {
          key: 'recipient',
          header: 'Shared with',
          cell: (a) => (
            <>
              {a.recipient} <Badge>{a.kind === 'PATIENT' ? 'Patient' : 'Colleagues'}</Badge>
            </>
          ),
        },
        {
          key: 'permissions',
          header: 'Permissions',
          cell: (a) => <Text>{a.permissions?.join(', ') ?? 'Patient link'}</Text>,
        },
        { key: 'by', header: 'Asked by', cell: (a) => a.requestedByName },
        { key: 'date', header: 'Date', cell: (a) => formatDateTime(a.requestedAt) },
        {
          key: 'actions',
          header: '',
          cell: (a) => (
            <HStack gap="2">
              <Button
                size="xs"
                loading={busy === a.id}
                disabled={busy !== undefined}
                onClick={() => decide(a, 'approve')}
              >
                Approve
              </Button>
              <Button
                size="xs"
                variant="outline"
                colorPalette="red"
                disabled={busy !== undefined}
                onClick={() => decide(a, 'refuse')}
              >
                Refuse
              </Button>
            </HStack>
          ),
        },
      ]}
    />
  );
}
