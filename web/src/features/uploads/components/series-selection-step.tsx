import { Alert, Badge, Box, Button, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { SeriesGroup } from '#shared/dicom/series.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { formatBytes } from '#web/lib/format.ts';
import { BIDS_CATEGORIES } from '#web/features/uploads/utils/bids-categories.ts';
import type { SeriesChoice } from '#web/features/uploads/utils/wizard-state.ts';

type Props = {
  series: SeriesGroup[];
  choices: Record<string, SeriesChoice>;
  onChange(choices: Record<string, SeriesChoice>): void;
  enhanced: boolean;
  onDownloadZip?: () => Promise<void>;
  zipBusy?: boolean;
  error?: string;
  onBack(): void;
  onContinue(): void;
};

const CATEGORY_OPTIONS = Object.keys(BIDS_CATEGORIES).map((c) => ({ value: c, label: c }));

/** Step 3: which series to upload, each with its BIDS data type and suffix; at least one must be selected. */
export function SeriesSelectionStep({
  series,
  choices,
  onChange,
  enhanced,
  onDownloadZip,
  zipBusy,
  error,
  onBack,
  onContinue,
}: Props) {
  const selected = series.filter((s) => choices[s.seriesInstanceUID]?.selected);
  const setChoice = (uid: string, patch: Partial<SeriesChoice>) =>
    onChange({ ...choices, [uid]: { ...choices[uid]!, ...patch } });
  const setAll = (value: boolean, uids = series.map((s) => s.seriesInstanceUID)) =>
    onChange(
      Object.fromEntries(
        Object.entries(choices).map(([uid, c]) => [uid, uids.includes(uid) ? { ...c, selected: value } : c]),
      ),
    );
  const groups = enhanced
    ? [...new Set(series.map((s) => s.category))].map((category) => ({
        category,
        items: series.filter((s) => s.category === category),
      }))
    : [{ category: '', items: series }];
  const columns: DataTableColumn<SeriesGroup>[] = [
    {
      key: 'selected',
      width: '10',
      cell: (s) => (
        <Checkbox
          aria-label={`Select series ${s.seriesNumber}`}
          checked={choices[s.seriesInstanceUID]!.selected}
          onCheckedChange={(v) => setChoice(s.seriesInstanceUID, { selected: v })}
        />
      ),
    },
    {
      key: 'series',
      header: 'Series',
      cell: (s) => (
        <>
          <Text fontWeight="medium">
            #{s.seriesNumber} {s.seriesDescription}
          </Text>
          <Badge size="sm" variant="outline">
            {s.category}
          </Badge>
        </>
      ),
    },
    { key: 'modality', header: 'Modality', cell: (s) => s.modality },
    { key: 'files', header: 'Files', cell: (s) => `${s.fileCount} · ${formatBytes(s.totalSize)}` },
    {
      key: 'bidsType',
      header: 'BIDS data type',
      cell: (s) => (
        <Select
          size="sm"
          aria-label={`BIDS data type of series ${s.seriesNumber}`}
          value={choices[s.seriesInstanceUID]!.bids.category}
          options={CATEGORY_OPTIONS}
          onChange={(category) =>
            setChoice(s.seriesInstanceUID, { bids: { category, subcategory: BIDS_CATEGORIES[category]![0]! } })
          }
        />
      ),
    },
    {
      key: 'bidsSuffix',
      header: 'BIDS suffix',
      cell: (s) => {
        const { bids } = choices[s.seriesInstanceUID]!;
        return (
          <Select
            size="sm"
            aria-label={`BIDS suffix of series ${s.seriesNumber}`}
            value={bids.subcategory}
            options={(BIDS_CATEGORIES[bids.category] ?? []).map((v) => ({ value: v, label: v }))}
            onChange={(subcategory) => setChoice(s.seriesInstanceUID, { bids: { ...bids, subcategory } })}
          />
        );
      },
    },
  ];
  const selectedFiles = selected.reduce((n, s) => n + s.fileCount, 0);
  const selectedBytes = selected.reduce((n, s) => n + s.totalSize, 0);

  return (
    <Stack gap="5" as="section" aria-label="Series Selection">
      <Flex justify="space-between" wrap="wrap" gap="3" align="center">
        <Text>
          {selected.length} of {series.length} series selected · {selectedFiles} files · {formatBytes(selectedBytes)}
        </Text>
        <HStack>
          <Button size="sm" variant="outline" onClick={() => setAll(true)}>
            Select All
          </Button>
          <Button size="sm" variant="outline" onClick={() => setAll(false)}>
            Deselect All
          </Button>
          {enhanced && onDownloadZip && (
            <Button size="sm" onClick={() => void onDownloadZip()} loading={zipBusy}>
              Download BIDS ZIP ({selected.length} series, {selectedFiles} files, {formatBytes(selectedBytes)})
            </Button>
          )}
        </HStack>
      </Flex>
      {enhanced && onDownloadZip && (
        <Text fontSize="sm" color="fg.muted" data-testid="zip-deidentified-note">
          The ZIP holds de-identified copies, made in this browser with the anonymization options of step 4 and a key
          used for this download only.
        </Text>
      )}
      {error && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      {groups.map((group) => (
        <Box key={group.category || 'all'}>
          {group.category && (
            <HStack mb="2" justify="space-between">
              <Heading size="sm">{group.category}</Heading>
              <HStack>
                <Button
                  size="xs"
                  variant="ghost"
                  onClick={() =>
                    setAll(
                      true,
                      group.items.map((s) => s.seriesInstanceUID),
                    )
                  }
                >
                  Select all
                </Button>
                <Button
                  size="xs"
                  variant="ghost"
                  onClick={() =>
                    setAll(
                      false,
                      group.items.map((s) => s.seriesInstanceUID),
                    )
                  }
                >
                  Deselect all
                </Button>
              </HStack>
            </HStack>
          )}
          <DataTable
            aria-label={group.category ? `${group.category} series` : 'Series found'}
            frameProps={{ overflowX: 'auto' }}
            rows={group.items}
            rowKey={(s) => s.seriesInstanceUID}
            rowProps={() => ({ 'data-testid': 'upload-series-row' })}
            columns={columns}
          />
        </Box>
      ))}
      <Flex justify="space-between">
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onContinue} disabled={selected.length === 0}>
          Continue to Anonymization
        </Button>
      </Flex>
    </Stack>
  );
}
