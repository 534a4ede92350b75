import { Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { LuTriangleAlert } from 'react-icons/lu';
import type { Series } from '#shared/schemas/api/datasets.ts';
import {
  MAX_REDACTION_RECTANGLES,
  RedactionRectangleSchema,
  type RedactionRectangle,
  type SeriesPreview,
} from '#shared/schemas/api/redaction.ts';
import { Modal } from '#web/components/ui/modal.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { getSeriesPreview, redactSeries, releaseSeries } from '#web/features/datasets/api/dataset-actions.ts';
import {
  describeRectangle,
  REVIEW_WARNING,
  spanRectangle,
  toImagePoint,
} from '#web/features/datasets/utils/redaction.ts';

type Props = {
  datasetId: string;
  series: Series;
  open: boolean;
  onClose(): void;
};

type Point = { x: number; y: number };
const EMPTY_FORM = { x: '', y: '', width: '', height: '' };

/**
 * The review of a series held for possible burned-in text (docs/domain.md#held-series): its frames one at a time, at
 * the image's own pixels, with a stepper; rectangles drawn on the image (or typed in image pixels) are blanked in
 * every frame by "Redact and release", or the series is released as it is.
 */
export function HeldSeriesReview({ datasetId, series, open, onClose }: Props) {
  const [frame, setFrame] = useState(0);
  const [preview, setPreview] = useState<SeriesPreview>();
  const [loadError, setLoadError] = useState<string>();
  const [rectangles, setRectangles] = useState<RedactionRectangle[]>([]);
  const [drawing, setDrawing] = useState<{ start: Point; end: Point }>();
  const [form, setForm] = useState(EMPTY_FORM);
  const [busy, setBusy] = useState<'release' | 'redact'>();
  const surface = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    setLoadError(undefined);
    getSeriesPreview(datasetId, series.id, frame).then(
      (loaded) => {
        if (current) setPreview(loaded);
      },
      (error: unknown) => {
        if (current) setLoadError(errorMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, [open, datasetId, series.id, frame]);

  const frameCount = preview?.frameCount ?? 0;
  const full = rectangles.length >= MAX_REDACTION_RECTANGLES;

  const pointOf = (event: PointerEvent<HTMLDivElement>): Point | undefined => {
    if (!preview || !surface.current) return undefined;
    const box = surface.current.getBoundingClientRect();
    return toImagePoint(event.clientX, event.clientY, box, preview);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const point = pointOf(event);
    if (!point || full) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setDrawing({ start: point, end: point });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const point = pointOf(event);
    if (drawing && point) setDrawing({ ...drawing, end: point });
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const point = pointOf(event);
    if (drawing && point) setRectangles((list) => [...list, spanRectangle(drawing.start, point)]);
    setDrawing(undefined);
  };

  const typed = RedactionRectangleSchema.safeParse({
    x: Number(form.x),
    y: Number(form.y),
    width: Number(form.width),
    height: Number(form.height),
  });
  const canAdd = Object.values(form).every((v) => v.trim() !== '') && typed.success && !full;
  const addTyped = () => {
    if (!typed.success) return;
    setRectangles((list) => [...list, typed.data]);
    setForm(EMPTY_FORM);
  };

  const finish = async (action: 'release' | 'redact') => {
    setBusy(action);
    try {
      if (action === 'redact') await redactSeries(datasetId, series.id, rectangles);
      else await releaseSeries(datasetId, series.id);
      toaster.create({
        type: 'success',
        title: action === 'redact' ? 'Series redacted and released' : 'Series released',
        description: `Series ${series.seriesNumber} will be processed.`,
        duration: 3000,
      });
      onClose();
    } catch (error) {
      toaster.create({ type: 'error', title: errorMessage(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const shown = drawing ? [...rectangles, spanRectangle(drawing.start, drawing.end)] : rectangles;
  const percent = (value: number, of: number) => `${(value / of) * 100}%`;

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="xl"
      title={`Review series ${series.seriesNumber}`}
      footer={
        <HStack>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="outline"
            loading={busy === 'release'}
            disabled={busy !== undefined}
            onClick={() => void finish('release')}
          >
            Release as is
          </Button>
          <Button
            colorPalette="red"
            loading={busy === 'redact'}
            disabled={busy !== undefined || rectangles.length === 0}
            onClick={() => void finish('redact')}
          >
            Redact and release
          </Button>
        </HStack>
      }
    >
      <Stack gap="4" data-testid="held-series-review">
        <HStack role="alert" gap="2" p="3" rounded="md" bg="orange.subtle" color="orange.fg" alignItems="start">
          <LuTriangleAlert />
          <Text fontSize="sm">{REVIEW_WARNING}</Text>
        </HStack>
        {loadError && (
          <Text color="fg.error" fontSize="sm" data-testid="review-error">
            {loadError}
          </Text>
        )}
        {preview && (
          <>
            <Box
              ref={surface}
              position="relative"
              alignSelf="center"
              maxW="full"
              w={`${Math.max(preview.width, 256)}px`}
              bg="black"
              cursor={full ? 'not-allowed' : 'crosshair'}
              touchAction="none"
              userSelect="none"
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              data-testid="review-surface"
            >
              <img
                src={preview.image}
                alt={`Frame ${preview.frame + 1} of series ${series.seriesNumber}`}
                draggable={false}
                style={{ display: 'block', width: '100%', height: 'auto', imageRendering: 'pixelated' }}
              />
              {shown.map((r, index) => (
                <Box
                  key={index}
                  position="absolute"
                  left={percent(r.x, preview.width)}
                  top={percent(r.y, preview.height)}
                  w={percent(Math.min(r.width, preview.width - r.x), preview.width)}
                  h={percent(Math.min(r.height, preview.height - r.y), preview.height)}
                  bg="blackAlpha.800"
                  borderWidth="1px"
                  borderColor="red.500"
                  pointerEvents="none"
                  data-testid="redaction-rectangle"
                />
              ))}
            </Box>
            <HStack justify="center">
              <Button size="sm" variant="outline" disabled={frame === 0} onClick={() => setFrame(frame - 1)}>
                Previous frame
              </Button>
              <input
                type="range"
                aria-label="Frame"
                min={0}
                max={Math.max(0, frameCount - 1)}
                value={frame}
                onChange={(event) => setFrame(Number(event.target.value))}
              />
              <Text fontSize="sm" data-testid="frame-position">
                Frame {frame + 1} of {frameCount}
              </Text>
              <Button
                size="sm"
                variant="outline"
                disabled={frame >= frameCount - 1}
                onClick={() => setFrame(frame + 1)}
              >
                Next frame
              </Button>
            </HStack>
            <Text fontSize="xs" color="fg.muted">
              Draw a rectangle over any text on the image, or type one in image pixels ({preview.width} ×{' '}
              {preview.height}). Each rectangle is blanked in every frame of the series.
            </Text>
          </>
        )}
        <HStack alignItems="end" flexWrap="wrap">
          {(['x', 'y', 'width', 'height'] as const).map((field) => (
            <Stack key={field} gap="0">
              <Text fontSize="xs" color="fg.muted" aria-hidden>
                {field}
              </Text>
              <Input
                size="sm"
                w="20"
                type="number"
                min={field === 'x' || field === 'y' ? 0 : 1}
                aria-label={`Rectangle ${field}`}
                value={form[field]}
                onChange={(event) => setForm({ ...form, [field]: event.target.value })}
              />
            </Stack>
          ))}
          <Button size="sm" variant="outline" disabled={!canAdd} onClick={addTyped}>
            Add rectangle
          </Button>
        </HStack>
        {rectangles.length > 0 && (
          <Stack as="ul" gap="1" aria-label="Rectangles to redact">
            {rectangles.map((r, index) => (
              <HStack as="li" key={index} gap="2">
                <Text fontSize="sm">{describeRectangle(r)}</Text>
                <Button
                  size="xs"
                  variant="ghost"
                  onClick={() => setRectangles((list) => list.filter((_, i) => i !== index))}
                >
                  Remove rectangle {index + 1}
                </Button>
              </HStack>
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
