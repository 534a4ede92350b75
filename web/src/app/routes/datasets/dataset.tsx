import {
  Badge,
  Button,
  Card,
  CloseButton,
  Dialog,
  Flex,
  Heading,
  HStack,
  Input,
  Portal,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState } from 'react';
import { LuArrowLeft, LuEye, LuRotateCcw, LuTrash2 } from 'react-icons/lu';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { hasPermission } from '#shared/vocabulary/roles.ts';
import {
  ACTIVE_DATASET_STATUSES,
  DATASET_STATUS_LABELS,
  DATASET_STATUS_PROGRESS,
} from '#shared/vocabulary/datasets.ts';
import { EmptyBlock, ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { deleteDataset, retryDataset } from '#web/features/datasets/api/dataset-actions.ts';
import { useAssets } from '#web/features/datasets/api/get-assets.ts';
import { useDataset } from '#web/features/datasets/api/get-dataset.ts';
import { useHistory } from '#web/features/datasets/api/get-history.ts';
import { AssetsList } from '#web/features/datasets/components/assets-list.tsx';
import { ExportControl } from '#web/features/datasets/components/export-control.tsx';
import { LegalHoldControl } from '#web/features/datasets/components/legal-hold-control.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { SharePanel } from '#web/features/shares/components/share-panel.tsx';
import { HistoryList } from '#web/features/datasets/components/history-list.tsx';
import { SERIES_EDITABLE_STATUSES } from '#shared/domain/datasets/series-changes.ts';
import { SeriesTable } from '#web/features/datasets/components/series-table.tsx';
import { canReleaseHeldSeries } from '#web/features/datasets/utils/burned-in-text.ts';
import { mayExport } from '#web/features/datasets/utils/export.ts';
import { STUDY_TYPE_LABELS, statusPalette, studyTypePalette } from '#web/features/datasets/utils/study-types.ts';
import { ApiRequestError } from '#shared/client/api-error.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes, formatDateTime } from '#web/lib/format.ts';

/** /datasets/{id}: context, series and classification, assets, history, retry and delete. */
export function DatasetRoute() {
  const { datasetId } = useParams();
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const { data: dataset, error, isLoading } = useDataset(datasetId);
  const { data: assets } = useAssets(datasetId, !!dataset);
  const { data: history, error: historyError } = useHistory(
    datasetId,
    dataset ? `${dataset.status}|${dataset.updatedAt}` : undefined,
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteReason, setDeleteReason] = useState('');
  const [busy, setBusy] = useState<'retry' | 'delete'>();

  if (isLoading) return <PageSpinner />;
  if (error instanceof ApiRequestError && error.status === 404) {
    return (
      <EmptyBlock title="Error loading dataset" description="The requested dataset could not be found.">
        <Button asChild variant="outline">
          <Link to={paths.datasets.getHref()}>Back to Datasets</Link>
        </Button>
      </EmptyBlock>
    );
  }
  if (error || !dataset) return <ErrorBox title="Error loading dataset" message={errorMessage(error)} />;

  const active = ACTIVE_DATASET_STATUSES.includes(dataset.status);
  // Selection and classification steer processing: they may change only until processing starts.
  const canEdit = hasPermission(user.permissions, 'UPLOAD_DICOM') && SERIES_EDITABLE_STATUSES.includes(dataset.status);
  // DELETE_DATA reaches one's own datasets; a lead's the team's, an admin's the hospital's; never one under legal hold
  // (docs/roles-and-permissions.md#dataset-management).
  const manages =
    !dataset.sharedWithYou &&
    (dataset.ownerUserId === user.id || user.role === 'TEAM_LEAD' || user.role === 'HOSPITAL_ADMIN');
  const canDelete = manages && hasPermission(user.permissions, 'DELETE_DATA') && !dataset.legalHold;
  const canHold = manages && (user.role === 'TEAM_LEAD' || user.role === 'HOSPITAL_ADMIN');
  const canExport = mayExport(user.permissions, dataset);
  const allAssets = assets ?? dataset.processedAssets;
  // A team share without Download lists no files to download (docs/domain.md#team-shares).
  const mayDownload = !dataset.sharedWithYou || dataset.sharedWithYou.includes('download');
  const downloadable = mayDownload ? allAssets.filter((a) => a.type !== 'THUMBNAIL') : [];
  // Its owner, their lead or a hospital admin share it (docs/domain.md#shares); never through a share of it.
  const canShare =
    !dataset.sharedWithYou &&
    (dataset.ownerUserId === user.id || user.role === 'TEAM_LEAD' || user.role === 'HOSPITAL_ADMIN') &&
    (user.role === 'HOSPITAL_ADMIN' || hasPermission(user.permissions, 'SHARE_DATA'));

  const retry = async () => {
    setBusy('retry');
    try {
      await retryDataset(dataset.id);
      toaster.create({ type: 'info', title: 'Processing restarted' });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setBusy(undefined);
    }
  };
  const remove = async () => {
    setBusy('delete');
    try {
      await deleteDataset(dataset.id, deleteReason);
      toaster.create({ type: 'success', title: 'Dataset moved to the recycle bin' });
      navigate(paths.datasets.getHref(), { replace: true });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
      setBusy(undefined);
      setConfirmDelete(false);
    }
  };

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="3">
        <Stack gap="1">
          <Button asChild variant="ghost" size="sm" alignSelf="flex-start" px="0">
            <Link to={paths.datasets.getHref()}>
              <LuArrowLeft /> Back to Datasets
            </Link>
          </Button>
          <Heading size="2xl">{dataset.studyDescription}</Heading>
          <HStack wrap="wrap">
            <Badge colorPalette={statusPalette(dataset.status)} data-testid="dataset-status">
              {dataset.status}
            </Badge>
            <Text>{DATASET_STATUS_LABELS[dataset.status]}</Text>
            {dataset.sharedWithYou && <Badge colorPalette="purple">Shared with you</Badge>}
            {dataset.legalHold && <Badge colorPalette="orange">Legal hold</Badge>}
            <Badge colorPalette={studyTypePalette(dataset.studyType)}>{STUDY_TYPE_LABELS[dataset.studyType]}</Badge>
            <Badge variant="outline">{dataset.urgency}</Badge>
          </HStack>
        </Stack>
        <HStack wrap="wrap">
          {dataset.status === 'FAILED' && canEdit && (
            <Button onClick={retry} loading={busy === 'retry'} variant="outline">
              <LuRotateCcw /> Retry
            </Button>
          )}
          {canExport && <ExportControl datasetId={dataset.id} />}
          {canHold && <LegalHoldControl dataset={dataset} />}
          {canDelete && (
            <Button colorPalette="red" variant="outline" onClick={() => setConfirmDelete(true)} disabled={active}>
              <LuTrash2 /> Delete
            </Button>
          )}
          <Button asChild disabled={dataset.status !== 'COMPLETE'}>
            <Link to={paths.visualizer.getHref(dataset.id)}>
              <LuEye /> Open Visualizer
            </Link>
          </Button>
        </HStack>
      </Flex>
      {active && (
        <Progress.Root
          value={DATASET_STATUS_PROGRESS[dataset.status]}
          colorPalette="blue"
          aria-label="Pipeline progress"
        >
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      {dataset.status === 'FAILED' && (
        <ErrorBox
          title="Processing failed"
          message={dataset.failureReason ?? 'The pipeline stopped before the dataset was complete.'}
        />
      )}
      <Card.Root>
        <Card.Header>
          <Heading size="md">Study</Heading>
        </Card.Header>
        <Card.Body>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="3" fontSize="sm">
            <Field label="Patient alias" value={dataset.patientAlias} />
            <Field label="Hospital" value={dataset.hospitalName ?? '-'} />
            <Field label="Department" value={dataset.department} />
            <Field label="Ordering physician" value={dataset.orderingPhysician} />
            <Field label="Clinical indication" value={dataset.clinicalIndication} />
            <Field label="Uploaded by" value={dataset.ownerName} />
            <Field label="Files" value={`${dataset.fileCount} files · ${formatBytes(dataset.sizeBytes)}`} />
            <Field label="Created" value={formatDateTime(dataset.createdAt)} />
            <Field label="De-identification" value={describeAnonymization(dataset.anonymization)} />
          </SimpleGrid>
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Series</Heading>
        </Card.Header>
        <Card.Body>
          <SeriesTable
            datasetId={dataset.id}
            series={dataset.series}
            thumbnails={allAssets.filter((a) => a.type === 'THUMBNAIL')}
            canEdit={canEdit}
            canSelect={canEdit}
            canRelease={canReleaseHeldSeries(user.role, dataset.status)}
          />
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Assets</Heading>
        </Card.Header>
        <Card.Body>
          <AssetsList assets={downloadable} series={dataset.series} />
        </Card.Body>
      </Card.Root>
      {canShare && <SharePanel datasetId={dataset.id} teamId={dataset.teamId} />}
      <Card.Root>
        <Card.Header>
          <Heading size="md">History</Heading>
        </Card.Header>
        <Card.Body>
          {historyError ? (
            <ErrorBox message={errorMessage(historyError)} />
          ) : history ? (
            <HistoryList events={history} />
          ) : (
            <Text color="fg.muted">Loading history...</Text>
          )}
        </Card.Body>
      </Card.Root>
      <Dialog.Root open={confirmDelete} onOpenChange={(e) => setConfirmDelete(e.open)} role="alertdialog">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>Delete this dataset?</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text>
                    The dataset leaves every list at once and goes to the recycle bin. A hospital admin can restore it
                    for 30 days; then its files and record are deleted for good.
                  </Text>
                  <FormField label="Reason">
                    <Input
                      name="deleteReason"
                      value={deleteReason}
                      onChange={(e) => setDeleteReason(e.target.value)}
                      maxLength={500}
                    />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline">Cancel</Button>
                </Dialog.ActionTrigger>
                <Button colorPalette="red" onClick={remove} loading={busy === 'delete'}>
                  Delete Dataset
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="0">
      <Text color="fg.muted" fontSize="xs">
        {label}
      </Text>
      <Text>{value}</Text>
    </Stack>
  );
}

function describeAnonymization(options: Record<string, boolean>): string {
  const kept = Object.entries(options)
    .filter(([, v]) => v)
    .map(([k]) =>
      k
        .replace(/^retain|^keep/, '')
        .replace(/([A-Z])/g, ' $1')
        .trim()
        .toLowerCase(),
    );
  return kept.length
    ? `Basic Profile, keeping ${kept.join(', ')}`
    : 'Basic Profile (Clean Descriptors, Retain Safe Private)';
}
