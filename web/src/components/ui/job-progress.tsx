import { Progress, Stack, Text } from '@chakra-ui/react';
import type { Job } from '#shared/schemas/api/jobs.ts';

const STATUS_WORDS: Record<Job['status'], string> = {
  QUEUED: 'Queued',
  RUNNING: 'In progress',
  SUCCEEDED: 'Done',
  FAILED: 'Stopped',
};

/** The progress of a job (docs/jobs.md): a bar while its total is known, and its counts in words. */
export function JobProgress({ job, label }: { job: Job; label: string }) {
  const total = job.total ?? 0;
  const value = job.status === 'SUCCEEDED' ? 100 : total > 0 ? Math.min(100, (job.processed / total) * 100) : null;
  const failed = job.failed > 0 ? `, ${job.failed} not done` : '';
  return (
    <Stack gap="1" data-testid="job-progress" data-status={job.status}>
      <Text textStyle="sm">
        {label}: {STATUS_WORDS[job.status]} ({job.processed}
        {job.total !== null ? ` of ${job.total}` : ''} processed, {job.succeeded} done{failed})
      </Text>
      <Progress.Root
        value={value}
        colorPalette={job.status === 'FAILED' ? 'red' : 'blue'}
        aria-label={`${label} progress`}
        size="sm"
      >
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Stack>
  );
}
