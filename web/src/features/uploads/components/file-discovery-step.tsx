import { Alert, Badge, Button, Flex, Progress, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { MAX_ENHANCED_FILES, MAX_WIZARD_FILES } from '#shared/schemas/api/uploads.ts';
import { catalogueMessage } from '#shared/vocabulary/errors.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { formatBytes } from '#web/lib/format.ts';
import { PROGRESS_DRAW_MS, throttledDraw } from '#web/lib/throttled-draw.ts';
import {
  discoverFilesInWorker,
  ENHANCED_BATCH_PAUSE_MS,
  WIZARD_BATCH_PAUSE_MS,
  type Discovery,
  type PickedFile,
} from '#web/features/uploads/utils/discover-files.ts';
import { FilePicker } from './file-picker.tsx';

type Props = {
  enhanced: boolean;
  onEnhancedChange(enhanced: boolean): void;
  discovery: Discovery | undefined;
  onDiscovered(discovery: Discovery | undefined, picked: PickedFile[]): void;
  onBack(): void;
  onContinue(): void;
};

/** Step 2: local discovery with the shared engine; non-DICOM files are listed and excluded. */
export function FileDiscoveryStep({ enhanced, onEnhancedChange, discovery, onDiscovered, onBack, onContinue }: Props) {
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [limitError, setLimitError] = useState<string>();
  const max = enhanced ? MAX_ENHANCED_FILES : MAX_WIZARD_FILES;

  const onPicked = async (picked: PickedFile[]) => {
    setLimitError(undefined);
    if (picked.length === 0) return;
    if (picked.length > max) {
      setLimitError(catalogueMessage('TOO_MANY_FILES', { n: max }));
      return;
    }
    setProgress({ done: 0, total: picked.length });
    onDiscovered(undefined, []);
    // A batch of files is read every few milliseconds: the count is drawn a few times a second.
    let latest = { done: 0, total: picked.length };
    const draw = throttledDraw(() => setProgress(latest), PROGRESS_DRAW_MS);
    const result = await discoverFilesInWorker(picked, {
      pauseMs: enhanced ? ENHANCED_BATCH_PAUSE_MS : WIZARD_BATCH_PAUSE_MS,
      onProgress: (done, total) => {
        latest = { done, total };
        draw.request();
      },
    }).finally(() => draw.cancel());
    setProgress(undefined);
    onDiscovered(result, picked);
  };

  const analyzing = progress !== undefined;
  const categories = new Set(discovery?.series.map((s) => s.category) ?? []);

  return (
    <Stack gap="5" as="section" aria-label="File Discovery">
      <Checkbox checked={enhanced} onCheckedChange={onEnhancedChange} disabled={analyzing}>
        Enhanced DICOM Upload (with BIDS support)
      </Checkbox>
      <FilePicker
        onPicked={(p) => void onPicked(p)}
        disabled={analyzing}
        analyzing={analyzing}
        accept={enhanced ? '.dcm,.dicom,application/dicom' : undefined}
      />
      {limitError && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{limitError}</Alert.Title>
        </Alert.Root>
      )}
      {progress && (
        <Progress.Root value={Math.round((progress.done / progress.total) * 100)} aria-label="Analyzing files">
          <Progress.Label>
            Analyzing {progress.done} of {progress.total} files
          </Progress.Label>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      {discovery && (
        <Stack gap="4" data-testid="discovery-summary">
          {enhanced ? (
            <SimpleGrid columns={{ base: 2, md: 5 }} gap="3">
              <StatCard label="Total Files" value={discovery.files.length + discovery.rejected.length} />
              <StatCard label="Valid DICOM" value={discovery.files.length} />
              <StatCard label="Series Found" value={discovery.series.length} />
              <StatCard label="Categories" value={categories.size} />
              <StatCard label="Process Time" value={`${(discovery.elapsedMs / 1000).toFixed(1)} s`} />
            </SimpleGrid>
          ) : null}
          <Text data-testid="discovery-counts">
            {discovery.files.length + discovery.rejected.length} files analyzed: {discovery.files.length} valid DICOM
            files in {discovery.series.length} series ({formatBytes(discovery.totalBytes)}).
          </Text>
          {discovery.files.length === 0 && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>No valid DICOM files detected. Upload DICOM files to continue.</Alert.Title>
            </Alert.Root>
          )}
          {discovery.rejected.length > 0 && (
            <Alert.Root status="warning">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{discovery.rejected.length} files are not recognized as standard DICOM files.</Alert.Title>
                <Alert.Description>They are excluded from the upload.</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {discovery.rejected.length > 0 && (
            <DataTable
              aria-label="Excluded files"
              hideHeader
              frameProps={{ maxH: '48', overflowY: 'auto', borderWidth: '1px', rounded: 'md' }}
              rows={discovery.rejected}
              rowKey={(r) => r.path}
              columns={[
                { key: 'path', cell: (r) => r.path },
                { key: 'reason', cell: (r) => <Badge colorPalette="orange">{r.message}</Badge> },
              ]}
            />
          )}
        </Stack>
      )}
      <Flex justify="space-between">
        <Button variant="outline" onClick={onBack} disabled={analyzing}>
          Back
        </Button>
        <Button onClick={onContinue} disabled={analyzing || !discovery || discovery.files.length === 0}>
          Continue to Series Selection
        </Button>
      </Flex>
    </Stack>
  );
}

function StatCard({ label, value }: { label: string; value: string | number }) {
  return (
    <Stat.Root borderWidth="1px" rounded="md" p="3">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText>{value}</Stat.ValueText>
    </Stat.Root>
  );
}
