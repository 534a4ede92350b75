import { HStack, SegmentGroup, Stack } from '@chakra-ui/react';
import type { BulkMode } from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { useBulkInvitations } from '#web/features/invitations/hooks/use-bulk-invitations.ts';
import { BulkCsvDropZone } from '#web/features/invitations/components/bulk-csv-drop-zone.tsx';
import { BulkRowsTable } from '#web/features/invitations/components/bulk-rows-table.tsx';
import { BulkActions, BulkSummary } from '#web/features/invitations/components/bulk-submit.tsx';
import { JobProgress } from '#web/components/ui/job-progress.tsx';

type Props = { departments: Department[]; teams: Team[]; onSent(): void };

/**
 * Bulk Invitations (docs/screens.md#bulk-invitations): a CSV by drag-and-drop or click replaces the manual rows;
 * Basic and Strict rules; Validate All shows Valid, Errors and Duplicates; Send N Invites, whose job's progress shows
 * under the table, and the rows not sent stay in it with their reasons (docs/jobs.md).
 */
export function BulkInvitations({ departments, teams, onSent }: Props) {
  const bulk = useBulkInvitations({ departments, teams, onSent });
  return (
    <Stack gap="4">
      <BulkCsvDropZone
        fileName={bulk.fileName}
        errors={bulk.csvErrors}
        inputRef={bulk.fileInput}
        onFiles={(files) => void bulk.loadFiles(files)}
      />
      <HStack wrap="wrap" gap="2">
        <SegmentGroup.Root
          size="sm"
          value={bulk.mode}
          onValueChange={(e) => e.value && bulk.setMode(e.value as BulkMode)}
          aria-label="Validation mode"
        >
          <SegmentGroup.Indicator />
          <SegmentGroup.Items
            items={[
              { value: 'basic', label: 'Basic' },
              { value: 'strict', label: 'Strict' },
            ]}
          />
        </SegmentGroup.Root>
        {bulk.summary && <BulkSummary summary={bulk.summary} />}
      </HStack>
      <BulkRowsTable
        rows={bulk.rows}
        errors={bulk.shownErrors}
        departments={departments}
        teams={teams}
        onUpdate={bulk.update}
        onDuplicate={bulk.duplicate}
        onRemove={bulk.remove}
      />
      <BulkActions
        validCount={bulk.validCount}
        anyErrors={bulk.anyErrors}
        busy={bulk.busy}
        onAddRow={bulk.addRow}
        onDownloadTemplate={bulk.downloadTemplate}
        onClearAll={bulk.clearAll}
        onValidate={bulk.validate}
        onSend={() => void bulk.send()}
      />
      {bulk.job && <JobProgress job={bulk.job} label="Sending invitations" />}
    </Stack>
  );
}
