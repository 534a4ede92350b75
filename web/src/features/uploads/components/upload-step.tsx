import { Alert, Badge, Box, Button, Flex, Heading, HStack, Progress, Stack, Table, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { LuCircleCheck } from 'react-icons/lu';
import type { FileProgress, OverallProgress } from '#shared/client/upload-client.ts';
import { DATASET_STATUS_LABELS, type DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { formatBytes } from '#web/lib/format.ts';
import type { UploadPhase } from '#web/features/uploads/utils/upload-progress.ts';

/** docs/states.md#labels-and-progress: the pipeline bar of the upload screen (uploading 25%, anonymizing 50%, classifying 75%, processing 85%). */
const PIPELINE_BAR: Partial<Record<DatasetStatus, number>> = {
  UPLOADING: 25,
  ANONYMIZING: 50,
  CLASSIFYING: 75,
  PROCESSING: 85,
  COMPLETE: 100,
};
const STAGES: DatasetStatus[] = ['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING', 'COMPLETE'];

/** Files listed while uploading: the first ones in flight, enough to see the upload move. */
const SHOWN_IN_FLIGHT = 20;

const filePercent = (f: FileProgress) => (f.totalBytes ? Math.round((f.uploadedBytes / f.totalBytes) * 100) : 0);

/** One file in flight; redrawn only when its figure moves, as progress redraws the step a few times a second. */
const FileInFlightRow = memo(function FileInFlightRow({ path, percent }: { path: string; percent: number }) {
  return (
    <Table.Row>
      <Table.Cell>{path}</Table.Cell>
      <Table.Cell w="40">
        <Progress.Root size="xs" value={percent}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      </Table.Cell>
    </Table.Row>
  );
});

type Props = {
  phase: UploadPhase;
  overall?: OverallProgress;
  /** Files in the upload: the count shown until the server's session gives its own. */
  fileCount: number;
  /** The files being sent now (complete ones have left). */
  inFlight: Record<number, FileProgress>;
  error?: string;
  status?: DatasetStatus;
  failureReason?: string;
  onRetry(): void;
  onViewDatasets(): void;
  onUploadAnother(): void;
  onOpenDataset(): void;
};

/** Step 5: real byte progress (overall and per file), then the dataset's pipeline stages as the server reports them. */
export function UploadStep({
  phase,
  overall,
  fileCount,
  inFlight,
  error,
  status,
  failureReason,
  onRetry,
  onViewDatasets,
  onUploadAnother,
  onOpenDataset,
}: Props) {
  const percent =
    overall && overall.totalBytes > 0 ? Math.round((overall.uploadedBytes / overall.totalBytes) * 100) : 0;
  const activeFiles = Object.values(inFlight)
    .sort((a, b) => a.fileIndex - b.fileIndex)
    .slice(0, SHOWN_IN_FLIGHT);
  const stageIndex = status ? STAGES.indexOf(status) : -1;

  return (
    <Stack gap="5" as="section" aria-label="Upload & Processing">
      <Stack gap="2">
        <Heading size="md">Upload</Heading>
        <Progress.Root
          value={phase === 'uploaded' ? 100 : percent}
          colorPalette={phase === 'error' ? 'red' : 'blue'}
          aria-label="Upload progress"
        >
          <HStack justify="space-between">
            <Progress.Label>
              {phase === 'uploaded'
                ? 'All files uploaded'
                : `Uploading ${overall?.filesComplete ?? 0} of ${overall?.filesTotal ?? fileCount} files complete`}
            </Progress.Label>
            <Progress.ValueText data-testid="upload-percent">
              {phase === 'uploaded' ? 100 : percent}%
            </Progress.ValueText>
          </HStack>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        {overall && (
          <Text fontSize="sm" color="fg.muted" data-testid="upload-bytes">
            {formatBytes(overall.uploadedBytes)} of {formatBytes(overall.totalBytes)}
            {overall.partsSkipped > 0
              ? ` · ${overall.partsSkipped} parts already on the server were not sent again`
              : ''}
          </Text>
        )}
        {activeFiles.length > 0 && (
          <Box maxH="40" overflowY="auto" borderWidth="1px" rounded="md">
            <Table.Root size="sm" aria-label="Files uploading">
              <Table.Body>
                {activeFiles.map((f) => (
                  <FileInFlightRow key={f.fileIndex} path={f.path} percent={filePercent(f)} />
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </Stack>
      {phase === 'error' && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>The upload stopped</Alert.Title>
            <Alert.Description>{error}</Alert.Description>
          </Alert.Content>
          <Button size="sm" onClick={onRetry}>
            Retry
          </Button>
        </Alert.Root>
      )}
      {phase === 'uploaded' && (
        <Stack gap="3">
          <Heading size="md">Processing</Heading>
          <Progress.Root
            value={status ? (PIPELINE_BAR[status] ?? 0) : 25}
            colorPalette={status === 'FAILED' ? 'red' : 'green'}
            aria-label="Processing progress"
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Flex gap="2" wrap="wrap" aria-label="Pipeline stages">
            {STAGES.map((s, i) => (
              <Badge
                key={s}
                colorPalette={
                  status === 'FAILED'
                    ? 'gray'
                    : i < stageIndex || status === 'COMPLETE'
                      ? 'green'
                      : i === stageIndex
                        ? 'blue'
                        : 'gray'
                }
                variant={i === stageIndex ? 'solid' : 'subtle'}
              >
                {s}
              </Badge>
            ))}
          </Flex>
          {status && (
            <Text data-testid="pipeline-status" data-status={status}>
              {DATASET_STATUS_LABELS[status]}
            </Text>
          )}
          {status === 'FAILED' && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Processing failed</Alert.Title>
                {failureReason && <Alert.Description>{failureReason}</Alert.Description>}
              </Alert.Content>
              <Button size="sm" variant="outline" onClick={onOpenDataset}>
                Open dataset
              </Button>
            </Alert.Root>
          )}
        </Stack>
      )}
      {status === 'COMPLETE' && (
        <Stack align="center" gap="3" py="6" data-testid="upload-complete">
          <LuCircleCheck size="48" color="var(--chakra-colors-green-500)" aria-hidden />
          <Heading size="lg">Upload complete</Heading>
          <Text color="fg.muted">The study was de-identified, classified and processed.</Text>
        </Stack>
      )}
      {(phase === 'uploaded' || phase === 'error') && (
        <Flex justify="center" gap="3">
          <Button variant="outline" onClick={onViewDatasets}>
            View in Datasets
          </Button>
          <Button onClick={onUploadAnother}>Upload Another Study</Button>
        </Flex>
      )}
    </Stack>
  );
}
