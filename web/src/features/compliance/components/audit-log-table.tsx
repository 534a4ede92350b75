import {
  Badge,
  Box,
  Button,
  Card,
  Code,
  Heading,
  HStack,
  Input,
  Link,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuDownload, LuSearch } from 'react-icons/lu';
import type { AuditExport, AuditFilter, AuditLogEntry } from '#shared/schemas/api/audit.ts';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { JobProgress } from '#web/components/ui/job-progress.tsx';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { exportAuditAsJob, exportAuditCsv, useAuditLog } from '#web/features/compliance/api/compliance.ts';
import { actionLabel, AUDIT_ACTIONS, toAuditFilter } from '#web/features/compliance/utils/audit-filters.ts';

const PAGE_SIZE = 25;
const EMPTY_FORM = { hospitalId: '', actor: '', target: '', action: '', from: '', to: '' };
const OUTCOME_COLORS: Record<AuditLogEntry['outcome'], string> = { SUCCESS: 'green', DENIED: 'orange', FAILURE: 'red' };
const AUDIT_COLUMNS: DataTableColumn<AuditLogEntry>[] = [
  { key: 'at', header: 'Time', cell: (e) => formatDateTime(e.at), cellProps: { whiteSpace: 'nowrap' } },
  { key: 'action', header: 'Action', cell: (e) => actionLabel(e.action) },
  {
    key: 'outcome',
    header: 'Outcome',
    cell: (e) => <Badge colorPalette={OUTCOME_COLORS[e.outcome]}>{e.outcome}</Badge>,
  },
  {
    key: 'actor',
    header: 'Actor',
    cell: (e) => (
      <>
        <Text>{e.actorName}</Text>
        <Code size="sm">{e.actorUserId}</Code>
      </>
    ),
  },
  {
    key: 'target',
    header: 'Target',
    cell: (e) => (e.datasetId || e.targetUserId ? <Code size="sm">{e.datasetId ?? e.targetUserId}</Code> : '—'),
  },
  { key: 'seq', header: '#', cell: (e) => e.seq ?? '—' },
];

/**
 * The audit log (docs/screens.md#compliance-center): search by actor, target, action and period, newest first, a page
 * at a time (the server's continuation tokens, kept as a stack for Previous), and the filtered log as CSV.
 */
export function AuditLogTable({ hospitalId }: { hospitalId?: string }) {
  const [form, setForm] = useState({ ...EMPTY_FORM });
  const [filter, setFilter] = useState<AuditFilter>({});
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const [exporting, setExporting] = useState(false);
  const [exportJob, setExportJob] = useState<Job>();
  const [finished, setFinished] = useState<AuditExport>();
  const scoped = { ...filter, ...(hospitalId ? { hospitalId } : {}) };
  const { data, error, isLoading } = useAuditLog({ ...scoped, limit: PAGE_SIZE, nextToken: tokens.at(-1) });

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(toAuditFilter({ ...form, hospitalId: '' }));
    setTokens([undefined]);
  };
  const clear = () => {
    setForm({ ...EMPTY_FORM });
    setFilter({});
    setTokens([undefined]);
  };
  const download = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(scoped);
    } catch (e) {
      toaster.create({ type: 'error', title: 'Download failed', description: errorMessage(e) });
    } finally {
      setExporting(false);
    }
  };
  // A long period: the server writes the CSV as a job, without the download's row cap (docs/jobs.md).
  const exportLong = async () => {
    setFinished(undefined);
    try {
      const done = await exportAuditAsJob(scoped, setExportJob);
      setFinished(done);
      if (done.job.status === 'FAILED') toaster.create({ type: 'error', title: 'The export stopped' });
    } catch (e) {
      toaster.create({ type: 'error', title: 'Export failed', description: errorMessage(e) });
    }
  };
  const jobRunning = exportJob !== undefined && exportJob.status !== 'SUCCEEDED' && exportJob.status !== 'FAILED';
  const set = (key: keyof typeof EMPTY_FORM) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading size="md">Audit Log</Heading>
          <HStack gap="2">
            <Button size="sm" variant="outline" onClick={download} loading={exporting} loadingText="Exporting...">
              <LuDownload /> Export CSV
            </Button>
            <Button size="sm" variant="outline" onClick={exportLong} loading={jobRunning} loadingText="Exporting...">
              <LuDownload /> Export long period
            </Button>
          </HStack>
        </HStack>
        <Text textStyle="xs" color="fg.muted">
          Export CSV downloads at most 10,000 events at once; Export long period writes the whole period on the server
          and offers a link when it is done.
        </Text>
        {exportJob && <JobProgress job={exportJob} label="Audit export" />}
        {finished?.download && (
          <Link
            href={finished.download.url}
            colorPalette="blue"
            download={finished.download.fileName}
            data-testid="audit-export-link"
          >
            <LuDownload /> Download {finished.download.fileName}
          </Link>
        )}
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <form onSubmit={search} aria-label="Search the audit log">
            <SimpleGrid columns={{ base: 1, md: 3, xl: 5 }} gap="3" alignItems="end">
              <FormField label="Actor (user ID)">
                <Input size="sm" value={form.actor} onChange={(e) => set('actor')(e.currentTarget.value)} />
              </FormField>
              <FormField label="Target (dataset or user ID)">
                <Input size="sm" value={form.target} onChange={(e) => set('target')(e.currentTarget.value)} />
              </FormField>
              <FormField label="Action">
                <Select
                  size="sm"
                  aria-label="Action"
                  value={form.action}
                  onChange={set('action')}
                  placeholder="All actions"
                  options={AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
                />
              </FormField>
              <FormField label="From">
                <Input size="sm" type="date" value={form.from} onChange={(e) => set('from')(e.currentTarget.value)} />
              </FormField>
              <FormField label="To">
                <Input size="sm" type="date" value={form.to} onChange={(e) => set('to')(e.currentTarget.value)} />
              </FormField>
            </SimpleGrid>
            <HStack mt="3">
              <Button size="sm" type="submit">
                <LuSearch /> Search
              </Button>
              <Button size="sm" variant="ghost" onClick={clear}>
                Clear filters
              </Button>
            </HStack>
          </form>
          {error ? (
            <ErrorBox message={errorMessage(error)} />
          ) : (
            <Box overflowX="auto">
              <DataTable
                aria-label="Audit events"
                loading={isLoading}
                rows={data?.items}
                rowKey={(e) => e.id}
                rowProps={(e) => ({ 'data-testid': 'audit-event', 'data-action': e.action })}
                columns={AUDIT_COLUMNS}
              />
              {data && data.items.length === 0 && (
                <Text color="fg.muted" py="4" textAlign="center">
                  No audit events match your filters
                </Text>
              )}
            </Box>
          )}
          <HStack justify="flex-end">
            <Button
              size="sm"
              variant="outline"
              disabled={tokens.length <= 1}
              onClick={() => setTokens((t) => t.slice(0, -1))}
            >
              Previous
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={!data?.nextToken}
              onClick={() => data?.nextToken && setTokens((t) => [...t, data.nextToken!])}
            >
              Next
            </Button>
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
