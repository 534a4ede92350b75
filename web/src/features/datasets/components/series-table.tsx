import { Badge, Box, Button, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuEyeOff, LuTriangleAlert } from 'react-icons/lu';
import type { ProcessedAsset, Series } from '#shared/schemas/api/datasets.ts';
import type { ClassifiedType } from '#shared/vocabulary/datasets.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes } from '#web/lib/format.ts';
import { classifySeries, releaseSeries, selectSeries } from '#web/features/datasets/api/dataset-actions.ts';
import { HeldSeriesReview } from '#web/features/datasets/components/held-series-review.tsx';
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
  const [reviewing, setReviewing] = useState<Series>();

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

  return (
    <>
      {reviewing && (
        <HeldSeriesReview datasetId={datasetId} series={reviewing} open onClose={() => setReviewing(undefined)} />
      )}
      <DataTable
        aria-label="Series"
        frameProps={{ overflowX: 'auto' }}
        rows={series}
        rowKey={(s) => s.id}
        empty={<Text color="fg.muted">No series yet: they appear once the files are de-identified.</Text>}
        rowProps={(s) => ({
          'data-testid': 'series-row',
          'data-series-id': s.id,
          'data-classified-type': s.classification?.classifiedType ?? '',
          'data-source': s.classification?.source ?? '',
          'data-held': burnedInTextNotice(s)?.held ? 'true' : undefined,
          'data-failed': s.failureReason ? 'true' : undefined,
        })}
        columns={[
          {
            key: 'selected',
            header: 'Selected',
            cell: (s) => (
              <Checkbox
                aria-label={`Select series ${s.seriesNumber}`}
                checked={s.selected}
                disabled={!canSelect || busy === s.id}
                onCheckedChange={(v) => void toggle(s, v)}
              />
            ),
          },
          {
            key: 'preview',
            header: 'Preview',
            cell: (s) => {
              const thumb = thumbnails.find((t) => t.seriesId === s.id && t.url);
              return thumb ? (
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
              );
            },
          },
          {
            key: 'series',
            header: 'Series',
            cell: (s) => {
              const notice = burnedInTextNotice(s);
              return (
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
                        <HStack>
                          <Button size="xs" colorPalette="orange" onClick={() => setReviewing(s)}>
                            Review series {s.seriesNumber}
                          </Button>
                          <Button size="xs" variant="outline" loading={busy === s.id} onClick={() => void release(s)}>
                            Release series {s.seriesNumber}
                          </Button>
                        </HStack>
                      )}
                      {notice.redacted && (
                        <Badge colorPalette="gray" alignSelf="start" data-testid="redacted-badge">
                          Redacted: {notice.redacted}
                        </Badge>
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
              );
            },
          },
          {
            key: 'type',
            header: 'Type',
            cell: ({ classification: c, lowConfidence }) => (
              <>
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
                    {lowConfidence && (
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
              </>
            ),
          },
          {
            key: 'confidence',
            header: 'Confidence',
            cell: (s) => (s.classification ? formatConfidence(s.classification.confidence) : '-'),
          },
          {
            key: 'bids',
            header: 'BIDS',
            cell: (s) => (s.classification ? bidsName(s.classification.bids) : '-'),
          },
          {
            key: 'reasons',
            header: 'Reasons',
            cellProps: { maxW: 'xs' },
            cell: (s) =>
              s.classification?.reasons.length ? (
                <Stack as="ul" gap="0" fontSize="xs" listStyleType="disc" ps="4">
                  {s.classification.reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </Stack>
              ) : (
                '-'
              ),
          },
          {
            key: 'change',
            header: 'Change classification',
            cell: (s) => (
              <Select
                size="sm"
                aria-label={`Change classification of series ${s.seriesNumber}`}
                value={s.classification?.classifiedType ?? ''}
                placeholder={s.classification ? undefined : 'Choose type'}
                disabled={!canEdit || busy === s.id}
                onChange={(v) => void changeType(s, v)}
                options={CLASSIFIED_TYPE_OPTIONS}
              />
            ),
          },
        ]}
      />
    </>
  );
}

/** The suggested BIDS name: datatype, then the header entities (docs/classification.md) and the suffix. */
function bidsName(bids: { datatype: string; suffix: string; entities?: Record<string, string> }): string {
  const entities = Object.entries(bids.entities ?? {}).map(([key, value]) => `${key}-${value}`);
  return `${bids.datatype}/${[...entities, bids.suffix].join('_')}`;
}
