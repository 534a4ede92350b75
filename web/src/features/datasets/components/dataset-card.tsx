import { Badge, Button, Card, HStack, Link as ChakraLink, Progress, Stack, Text } from '@chakra-ui/react';
import { LuEye } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { type Dataset } from '#shared/schemas/api/datasets.ts';
import {
  ACTIVE_DATASET_STATUSES,
  DATASET_STATUS_LABELS,
  DATASET_STATUS_PROGRESS,
} from '#shared/vocabulary/datasets.ts';
import { paths } from '#web/config/paths.ts';
import { formatBytes, formatDate } from '#web/lib/format.ts';
import { STUDY_TYPE_LABELS, statusPalette, studyTypePalette } from '#web/features/datasets/utils/study-types.ts';

/** A dataset card (docs/screens.md#datasets-page): status label, description, progress bar in the four active states. */
export function DatasetCard({ dataset }: { dataset: Dataset }) {
  const active = ACTIVE_DATASET_STATUSES.includes(dataset.status);
  const palette = studyTypePalette(dataset.studyType);
  return (
    <Card.Root
      data-testid="dataset-card"
      data-dataset-id={dataset.id}
      data-status={dataset.status}
      borderTopWidth="4px"
      borderTopColor={`${palette}.solid`}
    >
      <Card.Header pb="2">
        <HStack justify="space-between" align="flex-start">
          <Stack gap="0" minW="0">
            <ChakraLink asChild fontWeight="semibold">
              <Link to={paths.dataset.getHref(dataset.id)}>{dataset.studyDescription || 'Untitled study'}</Link>
            </ChakraLink>
            <Text fontSize="sm" color="fg.muted" truncate title={dataset.patientAlias}>
              Patient {dataset.patientAlias}
            </Text>
          </Stack>
          <Badge flexShrink={0} colorPalette={palette} variant={palette === 'gray' ? 'outline' : 'subtle'}>
            {STUDY_TYPE_LABELS[dataset.studyType]}
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body py="2">
        <Stack gap="2">
          <HStack>
            <Badge colorPalette={statusPalette(dataset.status)} data-testid="dataset-status">
              {dataset.status}
            </Badge>
            <Text fontSize="sm">{DATASET_STATUS_LABELS[dataset.status]}</Text>
          </HStack>
          {active && (
            <Progress.Root
              value={DATASET_STATUS_PROGRESS[dataset.status]}
              size="sm"
              colorPalette="blue"
              aria-label="Pipeline progress"
            >
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
          {dataset.status === 'FAILED' && dataset.failureReason && (
            <Text fontSize="sm" color="fg.error">
              {dataset.failureReason}
            </Text>
          )}
          <Text fontSize="sm" color="fg.muted" lineClamp={2}>
            {dataset.clinicalIndication}
          </Text>
          <Text fontSize="xs" color="fg.subtle">
            {dataset.seriesCount} series · {dataset.fileCount} files · {formatBytes(dataset.sizeBytes)} ·{' '}
            {formatDate(dataset.createdAt)} · {dataset.ownerName}
          </Text>
        </Stack>
      </Card.Body>
      <Card.Footer pt="2" gap="2">
        <Button asChild size="sm" variant="outline">
          <Link to={paths.dataset.getHref(dataset.id)}>Details</Link>
        </Button>
        <Button asChild size="sm" disabled={dataset.status !== 'COMPLETE'}>
          <Link to={paths.visualizer.getHref(dataset.id)} aria-label={`View ${dataset.studyDescription}`}>
            <LuEye /> View
          </Link>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
