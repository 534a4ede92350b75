import { Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuUndo2 } from 'react-icons/lu';
import type { RecycleBinItem } from '#shared/schemas/api/datasets.ts';
import { CursorPager } from '#web/components/ui/cursor-pager.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { restoreDataset } from '#web/features/datasets/api/dataset-actions.ts';
import { useRecycleBin } from '#web/features/datasets/api/recycle-bin.ts';
import { STUDY_TYPE_LABELS } from '#web/features/datasets/utils/study-types.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { useCursorStack } from '#web/lib/use-cursor-stack.ts';

/**
 * The hospital admin's recycle bin (docs/domain.md#recycle-bin): deleted datasets, who deleted them and why, and when
 * they are purged for good; Restore brings one back into its lists. A page at a time, Previous/Next over the server's
 * next token.
 */
export function RecycleBin() {
  const cursor = useCursorStack('recycle-bin');
  const { data, error, isLoading, mutate } = useRecycleBin(cursor.token);
  const [restoring, setRestoring] = useState<string>();

  const restore = async (dataset: RecycleBinItem) => {
    setRestoring(dataset.id);
    try {
      await restoreDataset(dataset.id);
      await mutate();
      toaster.create({ type: 'success', title: 'Dataset restored', description: dataset.studyDescription });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setRestoring(undefined);
    }
  };

  return (
    <Stack gap="4">
      <Stack gap="1">
        <Heading size="2xl">Recycle Bin</Heading>
        <Text color="fg.muted">
          Deleted datasets stay here for 30 days, then they are removed for good with their files.
        </Text>
      </Stack>
      {error ? (
        <ErrorBox message={errorMessage(error)} />
      ) : (
        <Card.Root>
          <Card.Body>
            <DataTable
              aria-label="Recycle bin"
              rows={data?.items}
              loading={isLoading}
              rowKey={(d) => d.id}
              rowProps={() => ({ 'data-testid': 'recycle-bin-row' })}
              empty={<Text color="fg.muted">The recycle bin is empty.</Text>}
              pagination={
                <CursorPager
                  page={cursor.page}
                  hasPrevious={cursor.hasPrevious}
                  hasNext={Boolean(data?.nextToken)}
                  onPrevious={cursor.previous}
                  onNext={() => cursor.next(data?.nextToken)}
                />
              }
              columns={[
                {
                  key: 'study',
                  header: 'Study',
                  cell: (d) => `${d.studyDescription} (${STUDY_TYPE_LABELS[d.studyType]})`,
                  cellProps: { fontWeight: 'medium' },
                },
                { key: 'owner', header: 'Owner', cell: (d) => d.ownerName },
                { key: 'deleted', header: 'Deleted', cell: (d) => formatDateTime(d.deletedAt) },
                { key: 'by', header: 'By', cell: (d) => d.deletedByName },
                { key: 'reason', header: 'Reason', cell: (d) => d.deletionReason, cellProps: { color: 'fg.muted' } },
                { key: 'purge', header: 'Purged on', cell: (d) => formatDate(d.purgeAfter) },
                {
                  key: 'actions',
                  align: 'end',
                  cell: (d) => (
                    <Button
                      size="xs"
                      variant="outline"
                      aria-label={`Restore ${d.studyDescription}`}
                      loading={restoring === d.id}
                      onClick={() => void restore(d)}
                    >
                      <LuUndo2 /> Restore
                    </Button>
                  ),
                },
              ]}
            />
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}
