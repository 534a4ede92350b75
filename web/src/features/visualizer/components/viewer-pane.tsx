import { Badge, Box, Flex, Text } from '@chakra-ui/react';
import type { Niivue } from '@niivue/niivue';
import { useMemo, useState } from 'react';
import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { Select } from '#web/components/ui/select.tsx';
import {
  NiivueViewer,
  type Layers,
  type Layout,
  type Measurement,
  type Tool,
} from '#web/features/visualizer/components/niivue-viewer.tsx';
import type { ViewerVolume } from '#web/features/visualizer/utils/viewer-assets.ts';
import {
  headerWindow,
  seriesKind,
  windowPresets,
  type VolumeRange,
} from '#web/features/visualizer/utils/window-presets.ts';

type Props = {
  entry: ViewerVolume;
  surface?: ProcessedAsset;
  layers: Layers;
  layout: Layout;
  tool: Tool;
  /** 'primary' or 'compare': names the pane's controls and its canvas for people and tests. */
  role: 'primary' | 'compare';
  onInstance?(nv: Niivue | undefined): void;
  onMeasurement?(measurement: Measurement): void;
  onError(message: string): void;
};

/** One series in the viewer: its name, its type and its window presets over the canvas. */
export function ViewerPane({ entry, role, ...viewer }: Props) {
  const kind = seriesKind(entry.volume);
  // The range and the chosen preset belong to the series shown; another series starts from NiiVue's own window.
  const [state, setState] = useState<{ volumeId: string; range?: VolumeRange; presetId?: string }>({
    volumeId: entry.volume.id,
  });
  const current = state.volumeId === entry.volume.id ? state : { volumeId: entry.volume.id };
  const presets = useMemo(
    () => (current.range ? windowPresets(kind, current.range, headerWindow(entry.volume.metadata)) : []),
    [kind, current.range, entry.volume.metadata],
  );
  const chosen = presets.find((p) => p.id === current.presetId);
  const window = useMemo(() => (chosen ? { min: chosen.min, max: chosen.max } : undefined), [chosen]);
  const suffix = role === 'compare' ? ' (compare)' : '';

  return (
    <Flex direction="column" h="full" minW="0" flex="1" data-testid={`viewer-pane-${role}`}>
      <Flex align="center" gap="2" px="2" py="1" borderBottomWidth="1px" wrap="wrap">
        <Text fontSize="sm" fontWeight="semibold" truncate flex="1" minW="0" title={entry.volume.label}>
          {entry.volume.label}
        </Text>
        <Badge size="sm" data-testid={`series-kind-${role}`}>
          {kind === 'OTHER' ? 'Series' : kind.replace('_', ' ')}
        </Badge>
        <Select
          size="xs"
          width="48"
          aria-label={`Window preset${suffix}`}
          disabled={presets.length === 0}
          value={current.presetId ?? 'auto'}
          onChange={(presetId) => setState({ ...current, presetId })}
          options={
            presets.length
              ? presets.map((p) => ({ value: p.id, label: p.label }))
              : [{ value: 'auto', label: 'Automatic (robust range)' }]
          }
        />
      </Flex>
      <Box flex="1" minH="0">
        <NiivueViewer
          entry={entry}
          window={window}
          testId={role === 'primary' ? 'niivue-canvas' : 'niivue-canvas-compare'}
          onVolumeLoaded={(range) => setState({ volumeId: entry.volume.id, range })}
          {...viewer}
        />
      </Box>
    </Flex>
  );
}
