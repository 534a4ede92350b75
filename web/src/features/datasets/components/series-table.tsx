import { Badge, Box, Button, HStack, Image, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuEyeOff, LuTriangleAlert } from 'react-icons/lu';
import type { ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import type { ClassifiedType } from '#shared/vocabulary/datasets.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes } from '#web/lib/format.ts';
import { classifySeries, releaseSeries, selectSeries } from '#web/features/datasets/api/dataset-actions.ts';
import { burnedInTextNotice } from '#web/features/datasets/utils/burned-in-text.ts';
import {
  CLASSIFIED_TYPE_LABELS,
  CLASSIFIED_TYPE_OPTIONS,
  formatConfidence,
} from '#web/features/datasets/utils/classification.ts';

type Props = {
  datasetId: string;
  series: Series[];
  thumbnails: ProcessedAsset[];
  canEdit: boolean;
  canSelect: boolean;
  /** May release series held for possible burned-in text (a lead or admin, while the pipeline is not writing). */
  canRelease?: boolean;
};

/** Series with their classification: type, confidence, AI/MANUAL, reasons, BIDS suggestion, low-confidence flag. */
export function SeriesTable({ datasetId, series, thumbnails, canEdit, canSelect, canRelease = false }: Props) {
  const [busy, setBusy] = useState<string>();

  const changeType = async (s: Series, type: string) => {
    if (!type || type === s.classification?.classifiedType) return;
    setBusy(s.id);
    try {
      await classifySeries(datasetId, s.id, type as ClassifiedType);
      toaster.create({
        type: 'success',
        title: 'Classification updated',
        description: `Series ${s.seriesNumber} is now ${CLASSIFIED_TYPE_LABELS[type as ClassifiedType]}.`,
        duration: 3000,
      });
    } catch (error) {
      toaster.create({ type: 'error', title: errorMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const release = async (s: Series) => {
    setBusy(s.id);
    try {
      await releaseSeries(datasetId, s.id);
      toaster.create({
        type: 'success',
        title: 'Series released',
        description: `Series ${s.seriesNumber} will be processed.`,
        duration: 3000,
      });
    } catch (error) {
      toaster.create({ type: 'error', title: errorMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const toggle = async (s: Series, selected: boolean) => {
    setBusy(s.id);
    try {
      await selectSeries(datasetId, [{ seriesId: s.id, selected }]);
    } catch (error) {
      toaster.create({ type: 'error', title: errorMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  if (series.length === 0)
    return <Text color="fg.muted">No series yet: they appear once the files are de-identified.</Text>;

  return (
    <Box overflowX="auto">
      <Table.Root size="sm" aria-label="Series">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Selected</Table.ColumnHeader>
            <Table.ColumnHeader>Preview</Table.ColumnHeader>
            <Table.ColumnHeader>Series</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Confidence</Table.ColumnHeader>
            <Table.ColumnHeader>BIDS</Table.ColumnHeader>
            <Table.ColumnHeader>Reasons</Table.ColumnHeader>
            <Table.ColumnHeader>Change classification</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {series.map((s) => {
            const c = s.classification;
            const thumb = thumbnails.find((t) => t.seriesId === s.id && t.url);
            const notice = burnedInTextNotice(s);
            return (
              <Table.Row
                key={s.id}
                data-testid="series-row"
                data-series-id={s.id}
                data-classified-type={c?.classifiedType ?? ''}
                data-source={c?.source ?? ''}
                data-held={notice?.held ? 'true' : undefined}
                data-failed={s.failureReason ? 'true' : undefined}
              >
                <Table.Cell>
                  <Checkbox
                    aria-label={`Select series ${s.seriesNumber}`}
                    checked={s.selected}
                    disabled={!canSelect || busy === s.id}
                    onCheckedChange={(v) => void toggle(s, v)}
                  />
                </Table.Cell>
                <Table.Cell>
                  {thumb ? (
                    <Image
                      src={thumb.url}
                      alt={`Thumbnail of series ${s.seriesNumber}`}
                      boxSize="16"
                      objectFit="cover"
                      rounded="sm"
                      bg="black"
                    />
                  ) : (
                    <Box boxSize="16" bg="bg.muted" rounded="sm" />
                  )}
                </Table.Cell>
                <Table.Cell>
                  <Stack gap="0">
                    <Text fontWeight="medium">
                      #{s.seriesNumber} {s.description || 'Unknown Series'}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      {s.modality} · {s.sliceCount} images · {formatBytes(s.sizeBytes)}
                    </Text>
                    {notice && (
                      <Stack gap="1" mt="1" maxW="sm" data-testid="burned-in-text-notice">
                        {notice.held && (
                          <Badge colorPalette="red" alignSelf="start">
                            <LuEyeOff /> Held: possible burned-in text
                          </Badge>
                        )}
                        <Text fontSize="xs" color={notice.held ? 'fg' : 'fg.muted'}>
                          {notice.message}
                        </Text>
                        {notice.held && canRelease && (
                          <Button
                            size="xs"
                            variant="outline"
                            alignSelf="start"
                            loading={busy === s.id}
                            onClick={() => void release(s)}
                          >
                            Release series {s.seriesNumber}
                          </Button>
                        )}
                      </Stack>
                    )}
                    {s.failureReason && (
                      <Stack gap="1" mt="1" maxW="sm" data-testid="series-failure">
                        <Badge colorPalette="red" alignSelf="start">
                          <LuTriangleAlert /> Failed
                        </Badge>
                        <Text fontSize="xs">{s.failureReason}</Text>
                      </Stack>
                    )}
                  </Stack>
                </Table.Cell>
                <Table.Cell>
                  {c ? (
                    <HStack>
                      <Badge colorPalette="blue" data-testid="classified-type">
                        {CLASSIFIED_TYPE_LABELS[c.classifiedType]}
                      </Badge>
                      <Badge
                        variant="outline"
                        colorPalette={c.source === 'MANUAL' ? 'purple' : 'gray'}
                        data-testid="classification-source"
                      >
                        {c.source}
                      </Badge>
                      {s.lowConfidence && (
                        <Badge colorPalette="orange" title="Low confidence: please review">
                          <LuTriangleAlert /> Review
                        </Badge>
                      )}
                    </HStack>
                  ) : (
                    <Text color="fg.muted">Not classified yet</Text>
                  )}
                  {c?.source === 'MANUAL' && c.modelType && (
                    <Text fontSize="xs" color="fg.muted">
                      Model said {CLASSIFIED_TYPE_LABELS[c.modelType]}
                      {c.modelConfidence !== undefined ? ` (${formatConfidence(c.modelConfidence)})` : ''}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{c ? formatConfidence(c.confidence) : '-'}</Table.Cell>
                <Table.Cell>{c ? bidsName(c.bids) : '-'}</Table.Cell>
                <Table.Cell maxW="xs">
                  {c?.reasons.length ? (
                    <Stack as="ul" gap="0" fontSize="xs" listStyleType="disc" ps="4">
                      {c.reasons.map((r) => (
                        <li key={r}>{r}</li>
                      ))}
                    </Stack>
                  ) : (
                    '-'
                  )}
                </Table.Cell>
                <Table.Cell>
                  <Select
                    size="sm"
                    aria-label={`Change classification of series ${s.seriesNumber}`}
                    value={c?.classifiedType ?? ''}
                    placeholder={c ? undefined : 'Choose type'}
                    disabled={!canEdit || busy === s.id}
                    onChange={(v) => void changeType(s, v)}
                    options={CLASSIFIED_TYPE_OPTIONS}
                  />
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

/** The suggested BIDS name: datatype, then the header entities (docs/classification.md) and the suffix. */
function bidsName(bids: { datatype: string; suffix: string; entities?: Record<string, string> }): string {
  const entities = Object.entries(bids.entities ?? {}).map(([key, value]) => `${key}-${value}`);
  return `${bids.datatype}/${[...entities, bids.suffix].join('_')}`;
}
